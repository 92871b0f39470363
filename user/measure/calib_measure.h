/* SPDX-License-Identifier: GPL-2.0 */
/* calib_measure.h: check an implementation's bytes, then time one call of it in a cache state */
#ifndef CP_CALIB_MEASURE_H
#define CP_CALIB_MEASURE_H

#include <stddef.h>
#include <stdint.h>
#include "asmref.h"
#include "calib_timer.h"
#include "costmodel/costmodel.h"

/* Source and destination, each in its own mapping, at the requested offsets from a page. */
struct calib_bufs {
	uint8_t *dst_map, *src_map;
	size_t map_len;
	uint8_t *dst, *src;
	size_t max_size;
};

/* Allocates and prefaults buffers for copies of up to @max_size bytes. 0 or -errno (printed). */
int calib_bufs_alloc(struct calib_bufs *b, size_t max_size, uint32_t align_dst, uint32_t align_src);
void calib_bufs_free(struct calib_bufs *b);

/*
 * Runs @impl once on @n bytes (its knob as the caller set it: asmref_prepare() for the row's
 * own) and checks the result against what it must produce (the source's
 * bytes, or zeros), and that the 64 bytes on either side of the destination are untouched.
 * Returns 0, or -EIO with the first wrong offset in *@bad (-1 before, n.. after the range).
 */
int calib_verify(const struct asmref_impl *impl, struct calib_bufs *b, size_t n, long *bad);

struct calib_sampling {
	unsigned int samples;	      /* warm: timed batches per measurement; the median is kept */
	unsigned int flushed_samples; /* flushed: single timed calls; their trimmed mean is kept */
	double batch_ticks;	      /* warm: calls per batch so that one batch lasts this long */
};

/*
 * One measurement of the per-call cost of @impl on @n bytes (asmref_prepare()d first: a
 * variant's knob, a glibc row's thresholds) in TSC ticks, timer overhead
 * removed. Warm: the median of @s->samples batches of calls on the same buffers. Flushed: every
 * line of the source or destination is clflushed before each call, which is timed alone; the
 * result is calib_robust_mean() of @s->flushed_samples such calls (fewer above 16 KiB, where
 * the TSC's step no longer matters, but never fewer than @s->samples).
 * Returns 0, or -EINTR if a stop was requested meanwhile.
 */
int calib_measure(const struct calib_timer *t, const struct asmref_impl *impl,
		  enum costmodel_cache cache, struct calib_bufs *b, size_t n,
		  const struct calib_sampling *s, double *ticks);

/* clear_user and memset have no source: src-flushed does not apply to them. */
bool calib_cache_applies(const struct asmref_impl *impl, enum costmodel_cache cache);

#endif
