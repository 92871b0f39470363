// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: estimate's --hist size tables (est_input_from_hist) on any bytes */
#include "estimate/estimate_input.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct est_input in;
	/* The family only labels the one site: the first byte picks it, the parse is the same. */
	enum copy_family f = (enum copy_family)(size ? data[0] % EST_NR_FAMILIES : 0);

	if (est_input_from_hist(fuzz_file(data, size), f, &in))
		return 0;
	est_input_has_family(&in, f);
	est_input_counted(&in, f);
	est_input_free(&in);
	return 0;
}
