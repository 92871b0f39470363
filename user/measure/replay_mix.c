// SPDX-License-Identifier: GPL-2.0
/* replay_mix.c: drawing calls from a family's mix: lengths by bucket, alignments, cache states */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/hist.h"
#include "replay_mix.h"
#include "replay_rng.h"

/* @cdf[0..n) from @w: cumulative, normalised; uniform if @w is NULL or all 0. */
static void make_cdf(double *cdf, const double *w, size_t n)
{
	double sum = 0, acc = 0;
	size_t i;

	for (i = 0; w && i < n; i++)
		sum += w[i] > 0 ? w[i] : 0;
	for (i = 0; i < n; i++) {
		acc += sum > 0 ? (w[i] > 0 ? w[i] : 0) / sum : 1.0 / (double)n;
		cdf[i] = acc;
	}
	cdf[n - 1] = 1;
}

/* The first index whose cumulative share exceeds @u. */
static size_t pick(const double *cdf, size_t n, double u)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cdf[mid] <= u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool any(const double *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		if (v[i] > 0)
			return true;
	return false;
}

int replay_mix_init(struct replay_mix *mx, const double *calls, const double *bytes,
		    const double *dst_align, const double *src_align, const double *dist,
		    const struct est_cache *cache, bool has_src)
{
	double *w = NULL, cw[COSTMODEL_NR_CACHES];
	size_t n = 0;
	int b;

	memset(mx, 0, sizeof(*mx));
	mx->lo = calloc(CP_NBUCKETS, sizeof(*mx->lo));
	mx->hi = calloc(CP_NBUCKETS, sizeof(*mx->hi));
	mx->mean = calloc(CP_NBUCKETS, sizeof(*mx->mean));
	mx->cdf = calloc(CP_NBUCKETS, sizeof(*mx->cdf));
	if (dist && has_src)
		mx->dist_cdf = calloc(CP_NBUCKETS, sizeof(*mx->dist_cdf));
	w = calloc(CP_NBUCKETS, sizeof(*w));
	if (!mx->lo || !mx->hi || !mx->mean || !mx->cdf || !w ||
	    (dist && has_src && !mx->dist_cdf)) {
		free(w);
		return -ENOMEM;
	}
	for (b = 0; b < CP_NBUCKETS; b++) {
		uint64_t lo = hist_bucket_lo(b), hi = hist_bucket_hi(b);
		double mean, half;

		if (!(calls[b] > 0))
			continue;
		if (lo > REPLAY_MAX_SIZE) {
			mx->left_out++;
			continue;
		}
		mean = bytes[b] / calls[b];
		if (!(mean >= (double)lo) || mean > (double)(hi - 1))
			mean = ((double)lo + (double)(hi - 1)) / 2;
		half = fmin(mean - (double)lo, (double)(hi - 1) - mean);
		mx->lo[n] = lo;
		mx->hi[n] = hi;
		mx->mean[n] = mean;
		w[n] = calls[b];
		if (mx->dist_cdf && any(&dist[b * CP_NR_DIST], CP_NR_DIST)) {
			make_cdf(mx->dist_cdf[n], &dist[b * CP_NR_DIST], CP_NR_DIST);
			mx->dist_recorded = true;
		}
		mx->calls += calls[b];
		if ((uint64_t)ceil(mean + half) > mx->max_len)
			mx->max_len = (uint64_t)ceil(mean + half);
		n++;
	}
	mx->nr = n;
	if (n)
		make_cdf(mx->cdf, w, n);
	free(w);
	if (!n)
		return -ENOENT;
	mx->aligned_recorded = any(dst_align, 64) || any(src_align, 64);
	make_cdf(mx->dst_cdf, any(dst_align, 64) ? dst_align : NULL, 64);
	make_cdf(mx->src_cdf, any(src_align, 64) ? src_align : NULL, 64);
	memcpy(cw, cache->w, sizeof(cw));
	if (!has_src) { /* no source to flush: that weight counts as warm */
		cw[COSTMODEL_WARM] += cw[COSTMODEL_SRC_FLUSHED];
		cw[COSTMODEL_SRC_FLUSHED] = 0;
	}
	make_cdf(mx->cache_cdf, cw, COSTMODEL_NR_CACHES);
	mx->has_src = has_src;
	return 0;
}

void replay_mix_free(struct replay_mix *mx)
{
	free(mx->lo);
	free(mx->hi);
	free(mx->mean);
	free(mx->cdf);
	free(mx->dist_cdf);
	memset(mx, 0, sizeof(*mx));
}

/*
 * A distance class for @d from @cdf, and the distance to place it at: where the class allows,
 * the one the drawn alignments give (a profile whose copies sit at one distance, with the
 * alignments to match, is replayed at that very distance), else uniform within the class.
 */
static void draw_dist(const double *cdf, uint64_t *seed, struct replay_draw *d)
{
	unsigned int e;

	d->dist = (int8_t)pick(cdf, CP_NR_DIST, replay_rng_unit(seed));
	switch (d->dist) {
	case CP_DIST_ZERO:
		d->src_align = d->dst_align;
		break;
	case CP_DIST_AHEAD:
		e = (d->dst_align - d->src_align) & (CP_ALIGN_SLOTS - 1);
		e = e ?: 1 + (unsigned int)replay_rng_below(seed, CP_DIST_WINDOW - 1);
		d->src_align = (uint8_t)((d->dst_align - e) & (CP_ALIGN_SLOTS - 1));
		d->dist_off = (uint16_t)e;
		break;
	case CP_DIST_BEHIND:
		e = (d->src_align - d->dst_align) & (CP_ALIGN_SLOTS - 1);
		e = e ?: 1 + (unsigned int)replay_rng_below(seed, CP_DIST_WINDOW - 1);
		d->src_align = (uint8_t)((d->dst_align + e) & (CP_ALIGN_SLOTS - 1));
		d->dist_off = (uint16_t)(CP_DIST_PERIOD - e);
		break;
	default: /* OTHER: placed independently, away from the other classes (paired_batch.c) */
		break;
	}
}

void replay_mix_draw(const struct replay_mix *mx, uint64_t *seed, struct replay_draw *d)
{
	size_t k = pick(mx->cdf, mx->nr, replay_rng_unit(seed));
	double half = fmin(mx->mean[k] - (double)mx->lo[k], (double)(mx->hi[k] - 1) - mx->mean[k]);

	d->n = mx->hi[k] - mx->lo[k] == 1
		       ? mx->lo[k]
		       : (uint64_t)llround(mx->mean[k] - half + 2 * half * replay_rng_unit(seed));
	d->dst_align = (uint8_t)pick(mx->dst_cdf, 64, replay_rng_unit(seed));
	d->src_align = (uint8_t)pick(mx->src_cdf, 64, replay_rng_unit(seed));
	d->cache = (uint8_t)pick(mx->cache_cdf, COSTMODEL_NR_CACHES, replay_rng_unit(seed));
	d->dist = -1;
	d->dist_off = 0;
	if (mx->dist_cdf && mx->dist_cdf[k][CP_NR_DIST - 1] > 0)
		draw_dist(mx->dist_cdf[k], seed, d);
}

bool replay_mix_reaches(const struct replay_mix *mx, uint64_t lo, uint64_t hi)
{
	size_t k;

	for (k = 0; k < mx->nr; k++)
		if (mx->lo[k] < hi && lo < mx->hi[k])
			return true;
	return false;
}
