// SPDX-License-Identifier: GPL-2.0
/* calib_measure.c: correctness check and timed calls of one implementation at one length */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <emmintrin.h>
#include <sys/mman.h>
#include "calib_loop.h"
#include "calib_measure.h"
#include "calib_stats.h"
#include "lib/log.h"
#include "lib/machine.h"
#include "lib/stop.h"
#include "lib/median.h"

#define GUARD 64 /* bytes checked on each side of the destination */
#define MAX_SAMPLES 1024
#define MAX_BATCH 100000
#define FEW_SAMPLES_FROM 16384 /* bytes */

static uint8_t *map_buf(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* Prefault, and give every page its own frame (no shared zero page). */
	memset(p, 0x5a, len);
	return p;
}

int calib_bufs_alloc(struct calib_bufs *b, size_t max_size, uint32_t align_dst, uint32_t align_src)
{
	size_t page = machine_page_size();
	int err;

	memset(b, 0, sizeof(*b));
	/* One page in front for the guard bytes, the offset, the copy, a page behind. */
	b->map_len = (page + page + max_size + GUARD + page - 1) & ~(page - 1);
	b->dst_map = map_buf(b->map_len);
	b->src_map = map_buf(b->map_len);
	if (!b->dst_map || !b->src_map) {
		err = -errno;
		p_err("cannot allocate two buffers of %zu bytes: %s", b->map_len, strerror(errno));
		calib_bufs_free(b);
		return err;
	}
	b->dst = b->dst_map + page + align_dst;
	b->src = b->src_map + page + align_src;
	b->max_size = max_size;
	return 0;
}

void calib_bufs_free(struct calib_bufs *b)
{
	if (b->dst_map)
		munmap(b->dst_map, b->map_len);
	if (b->src_map)
		munmap(b->src_map, b->map_len);
	memset(b, 0, sizeof(*b));
}

bool calib_cache_applies(const struct asmref_impl *impl, enum costmodel_cache cache)
{
	return cache != COSTMODEL_SRC_FLUSHED || impl->kind == ASMREF_COPY ||
	       impl->kind == ASMREF_COPY_USER;
}

static bool has_source(const struct asmref_impl *impl)
{
	return calib_cache_applies(impl, COSTMODEL_SRC_FLUSHED);
}

int calib_verify(const struct asmref_impl *impl, struct calib_bufs *b, size_t n, long *bad)
{
	uint8_t *lo = b->dst - GUARD;
	size_t i;

	/* A pattern that repeats every 251 bytes (prime), so no misplaced block matches. */
	for (i = 0; i < n; i++)
		b->src[i] = (uint8_t)(i % 251 + 1);
	memset(lo, 0xa5, n + 2 * GUARD);
	asmref_run(impl, b->dst, b->src, n);
	for (i = 0; i < GUARD; i++) {
		if (lo[i] != 0xa5) {
			*bad = -(long)(GUARD - i);
			return -EIO;
		}
		if (b->dst[n + i] != 0xa5) {
			*bad = (long)(n + i);
			return -EIO;
		}
	}
	for (i = 0; i < n; i++) {
		if (b->dst[i] != (has_source(impl) ? b->src[i] : 0)) {
			*bad = (long)i;
			return -EIO;
		}
	}
	return 0;
}

static void flush_range(const uint8_t *p, size_t n)
{
	uintptr_t line = machine_clflush_line();
	uintptr_t a = (uintptr_t)p & ~(line - 1), end = (uintptr_t)p + n;

	for (; a < end; a += line)
		_mm_clflush((const void *)a);
	/* CLFLUSH is ordered by MFENCE: every line is gone before the timed call starts. */
	_mm_mfence();
}

/* @k calls in a row through the loop the replay times too (calib_loop()). */
static void call_n(const struct asmref_impl *impl, struct calib_bufs *b, size_t n, unsigned int k)
{
	uint64_t len = n;

	calib_loop(impl, impl, 0, b->dst, b->src, &len, 0, k);
}

static double timed_calls(const struct calib_timer *t, const struct asmref_impl *impl,
			  struct calib_bufs *b, size_t n, unsigned int k)
{
	uint64_t t0, t1;
	double d;

	t0 = calib_tsc_begin();
	call_n(impl, b, n, k);
	t1 = calib_tsc_end(t);
	d = (double)(t1 - t0) - t->overhead;
	return d > 0 ? d : 0;
}

int calib_measure(const struct calib_timer *t, const struct asmref_impl *impl,
		  enum costmodel_cache cache, struct calib_bufs *b, size_t n,
		  const struct calib_sampling *s, double *ticks)
{
	double v[MAX_SAMPLES], est;
	unsigned int i, k = 1, nr = cache == COSTMODEL_WARM ? s->samples : s->flushed_samples;

	asmref_prepare(impl);
	/*
	 * Many flushed samples are there to average out the TSC step, which only matters for
	 * short calls; above 16 KiB fewer do, down to as many as a warm measurement takes.
	 */
	if (cache != COSTMODEL_WARM && n > FEW_SAMPLES_FROM)
		nr = (unsigned int)((double)nr * FEW_SAMPLES_FROM / (double)n);
	if (nr < s->samples)
		nr = s->samples;
	if (nr > MAX_SAMPLES)
		nr = MAX_SAMPLES;
	/* Warm-up: code, branch predictors, TLB and (for warm) both buffers. */
	call_n(impl, b, n, 2);
	if (cache == COSTMODEL_WARM) {
		est = timed_calls(t, impl, b, n, 4) / 4;
		if (est * MAX_BATCH < s->batch_ticks)
			k = MAX_BATCH;
		else if (est < s->batch_ticks)
			k = (unsigned int)(s->batch_ticks / (est > 1 ? est : 1)) + 1;
		call_n(impl, b, n, k);
	}
	for (i = 0; i < nr; i++) {
		if (stop_requested())
			return -EINTR;
		if (cache == COSTMODEL_SRC_FLUSHED)
			flush_range(b->src, n);
		else if (cache == COSTMODEL_DST_FLUSHED)
			flush_range(b->dst, n);
		v[i] = timed_calls(t, impl, b, n, k) / k;
	}
	/* A flushed call is timed alone, to within one TSC step: average the steps out. */
	*ticks = cache == COSTMODEL_WARM ? median_sorted(v, nr)
					 : calib_robust_mean(v, nr, t->quantum);
	return 0;
}
