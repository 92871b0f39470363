// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the `ld.so --list-tunables` parser (glibc_tunables_parse) on any bytes */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "lib/glibc_tunables.h"

/*
 * The loader's output is outside input: another glibc, a wrapper script named ld.so, a
 * truncated pipe. Besides the sanitizers: a refusal says why and leaves nothing set, and an
 * accepted list has at least one line and min <= max in every tunable kept.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct glibc_tunable *kept[6];
	struct glibc_tunables t;
	char *why = NULL;
	size_t i;
	int ret = glibc_tunables_parse((const char *)data, size, &t, &why);

	kept[0] = &t.rep_movsb_threshold;
	kept[1] = &t.rep_stosb_threshold;
	kept[2] = &t.rep_movsb_stop_threshold;
	kept[3] = &t.non_temporal_threshold;
	kept[4] = &t.shared_cache_size;
	kept[5] = &t.data_cache_size;
	if (ret) {
		if (ret == -EINVAL && !why)
			__builtin_trap();
		for (i = 0; i < 6; i++)
			if (kept[i]->present)
				__builtin_trap();
		free(why);
		return 0;
	}
	if (why || !t.nr_lines)
		__builtin_trap();
	for (i = 0; i < 6; i++)
		if (kept[i]->present && kept[i]->min > kept[i]->max)
			__builtin_trap();
	return 0;
}
