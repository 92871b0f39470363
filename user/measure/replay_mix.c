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

/* Appends an entry [@lo, @hi) of @calls calls of mean @mean; its distance row that of @drow. */
static void add_entry(struct replay_mix *mx, double *w, uint64_t lo, uint64_t hi, double calls,
		      double mean, const double *drow)
{
	size_t n = mx->nr++;
	double half = fmin(mean - (double)lo, (double)(hi - 1) - mean);

	mx->lo[n] = lo;
	mx->hi[n] = hi;
	mx->mean[n] = mean;
	w[n] = calls;
	if (mx->dist_cdf && drow && any(drow, CP_NR_DIST)) {
		make_cdf(mx->dist_cdf[n], drow, CP_NR_DIST);
		mx->dist_recorded = true;
	}
	mx->calls += calls;
	if (hi - lo == 1)
		mx->exact_calls += calls;
	if ((uint64_t)ceil(mean + half) > mx->max_len)
		mx->max_len = (uint64_t)ceil(mean + half);
}

int replay_mix_init(struct replay_mix *mx, const double *calls, const double *bytes,
		    const double *dst_align, const double *src_align, const double *dist,
		    const struct est_exact *exact, size_t nr_exact, const struct est_cache *cache,
		    bool has_src)
{
	size_t cap = CP_NBUCKETS + (nr_exact < EST_MAX_EXACT ? nr_exact : EST_MAX_EXACT), j = 0;
	double *w = NULL, cw[COSTMODEL_NR_CACHES];
	int b;

	memset(mx, 0, sizeof(*mx));
	mx->lo = calloc(cap, sizeof(*mx->lo));
	mx->hi = calloc(cap, sizeof(*mx->hi));
	mx->mean = calloc(cap, sizeof(*mx->mean));
	mx->cdf = calloc(cap, sizeof(*mx->cdf));
	if (dist && has_src)
		mx->dist_cdf = calloc(cap, sizeof(*mx->dist_cdf));
	w = calloc(cap, sizeof(*w));
	if (!mx->lo || !mx->hi || !mx->mean || !mx->cdf || !w ||
	    (dist && has_src && !mx->dist_cdf)) {
		free(w);
		return -ENOMEM;
	}
	for (b = 0; b < CP_NBUCKETS; b++) {
		uint64_t lo = hist_bucket_lo(b), hi = hist_bucket_hi(b);
		const double *drow = dist ? &dist[b * CP_NR_DIST] : NULL;
		double mean, rest = calls[b], rest_bytes = bytes[b];

		while (j < nr_exact && exact[j].len < lo)
			j++;
		if (!(calls[b] > 0)) {
			while (j < nr_exact && exact[j].len < hi)
				j++;
			continue;
		}
		if (lo > REPLAY_MAX_SIZE) {
			mx->left_out++;
			continue;
		}
		/* The bucket's exact lengths as themselves, within its calls ... */
		for (; j < nr_exact && exact[j].len < hi && mx->nr < cap; j++) {
			double n = fmin(exact[j].n, rest);

			if (!(n > 0))
				continue;
			add_entry(mx, w, exact[j].len, exact[j].len + 1, n, (double)exact[j].len,
				  drow);
			rest -= n;
			rest_bytes -= n * (double)exact[j].len;
		}
		/* ... and the rest smoothed around its own mean (none left: no entry). */
		if (!(rest > 1e-9 * calls[b]))
			continue;
		mean = rest_bytes / rest;
		if (!(mean >= (double)lo) || mean > (double)(hi - 1))
			mean = ((double)lo + (double)(hi - 1)) / 2;
		add_entry(mx, w, lo, hi, rest, mean, drow);
	}
	if (mx->nr)
		make_cdf(mx->cdf, w, mx->nr);
	free(w);
	if (!mx->nr)
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

int replay_mix_set_order(struct replay_mix *mx, const struct order_run *runs, size_t n)
{
	size_t i;
	uint32_t k;

	free(mx->runs);
	mx->runs = n ? calloc(n, sizeof(*mx->runs)) : NULL;
	mx->nr_runs = 0;
	if (n && !mx->runs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		uint64_t top = 0;

		for (k = 0; k < runs[i].nr; k++)
			top = runs[i].len[k] > top ? runs[i].len[k] : top;
		if (!runs[i].nr || runs[i].nr > CP_ORDER_LEN || top > REPLAY_MAX_SIZE)
			continue;
		mx->runs[mx->nr_runs++] = runs[i];
		if (top > mx->max_len)
			mx->max_len = top;
	}
	return 0;
}

uint64_t replay_mix_order_calls(const struct replay_mix *mx)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < mx->nr_runs; i++)
		n += mx->runs[i].nr;
	return n;
}

void replay_mix_free(struct replay_mix *mx)
{
	free(mx->runs);
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
	case CP_DIST_ALIGNED_64: /* the same line offset, a nonzero multiple of 64 apart */
		d->src_align = d->dst_align;
		d->dist_off = (uint16_t)(CP_DIST_WINDOW *
					 (1 + replay_rng_below(
						      seed, CP_DIST_PERIOD / CP_DIST_WINDOW - 1)));
		break;
	default: /* OTHER: placed independently, away from the other classes (paired_batch.c) */
		break;
	}
}

/* Everything of a call but its length @d->n, drawn as for entry @k (SIZE_MAX: no entry). */
static void draw_rest(const struct replay_mix *mx, size_t k, uint64_t *seed, struct replay_draw *d)
{
	d->dst_align = (uint8_t)pick(mx->dst_cdf, 64, replay_rng_unit(seed));
	d->src_align = (uint8_t)pick(mx->src_cdf, 64, replay_rng_unit(seed));
	d->cache = (uint8_t)pick(mx->cache_cdf, COSTMODEL_NR_CACHES, replay_rng_unit(seed));
	d->dist = -1;
	d->dist_off = 0;
	if (mx->dist_cdf && k < mx->nr && mx->dist_cdf[k][CP_NR_DIST - 1] > 0)
		draw_dist(mx->dist_cdf[k], seed, d);
}

void replay_mix_draw(const struct replay_mix *mx, uint64_t *seed, struct replay_draw *d)
{
	size_t k = pick(mx->cdf, mx->nr, replay_rng_unit(seed));
	double half = fmin(mx->mean[k] - (double)mx->lo[k], (double)(mx->hi[k] - 1) - mx->mean[k]);

	d->n = mx->hi[k] - mx->lo[k] == 1
		       ? mx->lo[k]
		       : (uint64_t)llround(mx->mean[k] - half + 2 * half * replay_rng_unit(seed));
	draw_rest(mx, k, seed, d);
}

void replay_mix_draw_len(const struct replay_mix *mx, uint64_t n, uint64_t *seed,
			 struct replay_draw *d)
{
	size_t k, at = SIZE_MAX;

	/* The entry holds only the distance row: looked for only where there are rows. */
	for (k = 0; mx->dist_cdf && k < mx->nr; k++)
		if (mx->lo[k] <= n && n < mx->hi[k]) {
			at = k;
			if (mx->hi[k] - mx->lo[k] == 1)
				break; /* the length's own entry before its bucket's rest */
		}
	d->n = n;
	draw_rest(mx, at, seed, d);
}

bool replay_mix_reaches(const struct replay_mix *mx, uint64_t lo, uint64_t hi)
{
	size_t k;

	for (k = 0; k < mx->nr; k++)
		if (mx->lo[k] < hi && lo < mx->hi[k])
			return true;
	return false;
}
