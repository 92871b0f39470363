// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: preset files (preset_load on a path) on any bytes */
#include "fuzz_file.h"
#include "sites/preset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct preset *p = NULL;

	if (!preset_load(fuzz_file(data, size), &p))
		preset_free(p);
	return 0;
}
