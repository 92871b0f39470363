/* SPDX-License-Identifier: GPL-2.0 */
/* replay_regions.h: the memory a replay copies within: warm working sets and cold regions */
#ifndef CP_REPLAY_REGIONS_H
#define CP_REPLAY_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Per side (destination, source): a warm working set, within which each call gets a random
 * line-aligned offset plus its alignment (so the working set stays in cache), and, where a call
 * is to find its lines cold, a region much larger than the last-level cache in which each timed
 * pass picks a fresh random line: no prefetcher can follow, and the lines a pass touched are
 * long evicted before they are picked again. Both are mapped with transparent huge pages where
 * the kernel allows, as the kernel's direct map is.
 */
struct replay_regions {
	uint8_t *warm[2], *cold[2]; /* [0] destination, [1] source */
	size_t ws_bytes, cold_bytes;
	uint64_t max_len;
};

/* The default warm working set per side: a quarter of the L2 of the CPU this runs on (256 KiB
 * if unknown: lib/machine.h's machine_caches_of()). */
size_t replay_default_ws(void);
/*
 * The small warm working set per side, the one a workload that reuses a few buffers copies
 * within: a quarter of the L1d of the CPU this runs on, rounded down to a power of two (8 KiB
 * on a 32 or 48 KiB L1d; 8 KiB if unknown), so that both sides and the replay's own data stay
 * in L1d. The warm region still grows to fit the longest call (replay_regions_alloc()).
 */
size_t replay_small_ws(void);
/* The default cold region: 8 times the last-level cache, at least 256 MiB. */
size_t replay_default_cold(void);

/*
 * Maps and prefaults the regions for calls of up to @max_len bytes: warm ones of @ws bytes (at
 * least 4 * @max_len + a page), cold ones of @cold bytes where @cold_dst / @cold_src. 0, or
 * -errno after printing why.
 */
int replay_regions_alloc(struct replay_regions *r, size_t ws, size_t cold, uint64_t max_len,
			 bool cold_dst, bool cold_src);
void replay_regions_free(struct replay_regions *r);
/* An address in side @side's warm (or cold) region for @n bytes at @align within a line. */
uint8_t *replay_regions_pick(const struct replay_regions *r, int side, bool cold, uint64_t n,
			     unsigned int align, uint64_t *seed);
/* An address as replay_regions_pick()'s, at @off modulo CP_DIST_PERIOD (its page offset). */
uint8_t *replay_regions_pick_at(const struct replay_regions *r, int side, bool cold, uint64_t n,
				unsigned int off, uint64_t *seed);

#endif
