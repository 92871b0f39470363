// SPDX-License-Identifier: GPL-2.0
/* replay_regions.c: the memory a replay copies within: warm working sets and cold regions */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "lib/hist.h"
#include "lib/log.h"
#include "lib/machine.h"
#include "replay_regions.h"
#include "replay_rng.h"

/*
 * A pick starts on a multiple of the profile's alignment slots (addr % 64, profile-format.md),
 * plus the recorded alignment: the slots' count, not a cache line.
 */
#define ALIGN_SLOTS 64

/* The caches of the CPU this replay runs on (it is pinned by then). */
static struct machine_caches caches_here(void)
{
	struct machine_caches c;

	machine_caches_of(machine_cpu_now(), &c);
	return c;
}

size_t replay_default_ws(void)
{
	size_t l2 = caches_here().l2;

	return l2 >= 64 * 1024 ? l2 / 4 : 256 * 1024;
}

size_t replay_small_ws(void)
{
	size_t l1d = caches_here().l1d, ws = 4096;

	if (!l1d)
		return 8192;
	while (2 * ws <= l1d / 4)
		ws *= 2;
	return ws;
}

size_t replay_default_cold(void)
{
	struct machine_caches c = caches_here();
	size_t llc = c.l3 ?: c.l2;

	return 8 * llc > (256UL << 20) ? 8 * llc : 256UL << 20;
}

static uint8_t *map_region(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, len, MADV_HUGEPAGE); /* advice only: 4 KiB pages where it is refused */
	memset(p, 0x5a, len);		/* prefault: every page its own frame */
	return p;
}

int replay_regions_alloc(struct replay_regions *r, size_t ws, size_t cold, uint64_t max_len,
			 bool cold_dst, bool cold_src)
{
	bool want_cold[2] = { cold_dst, cold_src };
	size_t page = machine_page_size(), min = 4 * max_len + page;
	int side;

	memset(r, 0, sizeof(*r));
	r->ws_bytes = (ws > min ? ws : min + page - 1) & ~(size_t)(page - 1);
	r->cold_bytes = cold > 4 * r->ws_bytes ? cold : 4 * r->ws_bytes;
	r->max_len = max_len;
	for (side = 0; side < 2; side++) {
		r->warm[side] = map_region(r->ws_bytes + page);
		if (want_cold[side])
			r->cold[side] = map_region(r->cold_bytes + page);
		if (!r->warm[side] || (want_cold[side] && !r->cold[side])) {
			int err = -errno;

			p_err("replay: cannot map %zu bytes of working set: %s",
			      want_cold[side] ? r->cold_bytes : r->ws_bytes, strerror(errno));
			replay_regions_free(r);
			return err;
		}
	}
	return 0;
}

void replay_regions_free(struct replay_regions *r)
{
	size_t page = machine_page_size();
	int side;

	for (side = 0; side < 2; side++) {
		if (r->warm[side])
			munmap(r->warm[side], r->ws_bytes + page);
		if (r->cold[side])
			munmap(r->cold[side], r->cold_bytes + page);
	}
	memset(r, 0, sizeof(*r));
}

uint8_t *replay_regions_pick(const struct replay_regions *r, int side, bool cold, uint64_t n,
			     unsigned int align, uint64_t *seed)
{
	uint8_t *base = cold && r->cold[side] ? r->cold[side] : r->warm[side];
	size_t len = cold && r->cold[side] ? r->cold_bytes : r->ws_bytes;
	size_t lines = (len - (size_t)n - ALIGN_SLOTS) / ALIGN_SLOTS + 1;

	return base + replay_rng_below(seed, lines) * ALIGN_SLOTS + (align % ALIGN_SLOTS);
}

uint8_t *replay_regions_pick_at(const struct replay_regions *r, int side, bool cold, uint64_t n,
				unsigned int off, uint64_t *seed)
{
	uint8_t *base = cold && r->cold[side] ? r->cold[side] : r->warm[side];
	size_t len = cold && r->cold[side] ? r->cold_bytes : r->ws_bytes;
	/* The region holds 4 x max_len + a page (replay_regions_alloc()): room for both. */
	size_t first = (off - (uintptr_t)base) & (CP_DIST_PERIOD - 1);
	size_t pages = (len - (size_t)n - first) / CP_DIST_PERIOD + 1;

	return base + first + replay_rng_below(seed, pages) * CP_DIST_PERIOD;
}
