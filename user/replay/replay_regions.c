// SPDX-License-Identifier: GPL-2.0
/* replay_regions.c: the memory a replay copies within: warm working sets and cold regions */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "lib/log.h"
#include "replay_regions.h"
#include "replay_rng.h"

#define LINE 64
#define PAGE 4096

/* The size of cache level @index of CPU 0 from sysfs ("1024K"), or 0 if unknown. */
static size_t cache_size(int index)
{
	char path[96], buf[32], unit = 0;
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%llu%c", &v, &unit) < 1)
		v = 0;
	fclose(f);
	return (size_t)v * (unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : 1);
}

size_t replay_default_ws(void)
{
	size_t l2 = cache_size(2);

	return l2 >= 64 * 1024 ? l2 / 4 : 256 * 1024;
}

size_t replay_default_cold(void)
{
	size_t llc = cache_size(3) ?: cache_size(2);

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
	size_t min = 4 * max_len + PAGE;
	int side;

	memset(r, 0, sizeof(*r));
	r->ws_bytes = (ws > min ? ws : min + PAGE - 1) & ~(size_t)(PAGE - 1);
	r->cold_bytes = cold > 4 * r->ws_bytes ? cold : 4 * r->ws_bytes;
	r->max_len = max_len;
	for (side = 0; side < 2; side++) {
		r->warm[side] = map_region(r->ws_bytes + PAGE);
		if (want_cold[side])
			r->cold[side] = map_region(r->cold_bytes + PAGE);
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
	int side;

	for (side = 0; side < 2; side++) {
		if (r->warm[side])
			munmap(r->warm[side], r->ws_bytes + PAGE);
		if (r->cold[side])
			munmap(r->cold[side], r->cold_bytes + PAGE);
	}
	memset(r, 0, sizeof(*r));
}

uint8_t *replay_regions_pick(const struct replay_regions *r, int side, bool cold, uint64_t n,
			     unsigned int align, uint64_t *seed)
{
	uint8_t *base = cold && r->cold[side] ? r->cold[side] : r->warm[side];
	size_t len = cold && r->cold[side] ? r->cold_bytes : r->ws_bytes;
	size_t lines = (len - (size_t)n - LINE) / LINE + 1;

	return base + replay_rng_below(seed, lines) * LINE + (align % LINE);
}
