// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the per-boot trap cost cache's parser (trap_cache_parse) on any bytes */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "fuzz_file.h"
#include "kernel/trap_cache.h"

/*
 * The cache sits in /run, written by an earlier copyprof or by anyone who could write there:
 * outside input. The key is fixed (the seeds carry it), so entries are reached. Besides the
 * sanitizers: a refusal leaves nothing, and an accepted cache has at most its maximum of
 * entries, each with a known name, once, and costs within range.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct trap_cache_key k = { .boot_id = "fuzz-boot",
					  .kernel = "fuzz-kernel",
					  .cpu = "fuzz-cpu",
					  .mitigations = "0000000000000000",
					  .method = "fuzz-method" };
	struct trap_cache c;
	char why[256] = "";
	size_t i, j;

	if (trap_cache_parse(fuzz_file(data, size), &k, &c, why, sizeof(why))) {
		if (c.nr || !why[0])
			__builtin_trap();
		return 0;
	}
	if (c.nr > TRAP_CACHE_MAX_ENTRIES)
		__builtin_trap();
	for (i = 0; i < c.nr; i++) {
		if (!c.v[i].mech[0] ||
		    !(c.v[i].hit_ns >= 0 && c.v[i].hit_ns <= TRAP_CACHE_MAX_NS) ||
		    !(c.v[i].bpf_ns >= 0 && c.v[i].bpf_ns <= TRAP_CACHE_MAX_NS) ||
		    (!c.v[i].bpf_counted && c.v[i].bpf_ns))
			__builtin_trap();
		for (j = 0; j < i; j++)
			if (!strcmp(c.v[i].mech, c.v[j].mech))
				__builtin_trap();
	}
	return 0;
}
