// SPDX-License-Identifier: GPL-2.0
/* replay_sequence.c: a replay's lengths: the buckets apportioned, spread, cached and shuffled */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "replay_sequence.h"

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static double rng_unit(uint64_t *s)
{
	return (double)(rng_next(s) >> 11) / 9007199254740992.0;
}

/* Calls per bucket by largest remainder, so that they add up to exactly @total. */
static void apportion(const double *calls, double sum, size_t total, size_t *k)
{
	double rem[CP_NBUCKETS];
	size_t given = 0;
	int b;

	for (b = 0; b < CP_NBUCKETS; b++) {
		double x = sum > 0 ? calls[b] * (double)total / sum : 0;

		k[b] = (size_t)x;
		rem[b] = x - (double)k[b];
		given += k[b];
	}
	while (given < total) {
		int best = -1;

		for (b = 0; b < CP_NBUCKETS; b++)
			if (calls[b] > 0 && (best < 0 || rem[b] > rem[best]))
				best = b;
		if (best < 0)
			break;
		k[best]++;
		rem[best] = -1;
		given++;
	}
}

static uint8_t draw_cache(const struct est_cache *c, bool has_src, uint64_t *s)
{
	double w[COSTMODEL_NR_CACHES], sum = 0, x;
	int k;

	memcpy(w, c->w, sizeof(w));
	if (!has_src) {
		w[COSTMODEL_WARM] += w[COSTMODEL_SRC_FLUSHED];
		w[COSTMODEL_SRC_FLUSHED] = 0;
	}
	for (k = 0; k < COSTMODEL_NR_CACHES; k++)
		sum += w[k];
	x = rng_unit(s) * sum;
	for (k = 0; k < COSTMODEL_NR_CACHES - 1; k++) {
		if (x < w[k])
			return (uint8_t)k;
		x -= w[k];
	}
	return COSTMODEL_NR_CACHES - 1;
}

size_t replay_draw_sequence(const struct est_family_result *fr, const struct replay_opts *o,
			    uint64_t from, uint64_t below, struct replay_call **out,
			    uint64_t *max_n, size_t *left_out)
{
	double sum = 0, calls[CP_NBUCKETS];
	size_t k[CP_NBUCKETS], n = 0, i, total;
	struct replay_call *seq;
	uint64_t s = o->seed;
	int b;

	*left_out = 0;
	/* Only the buckets in [@from, @below) and up to REPLAY_MAX_SIZE take part. */
	for (b = 0; b < CP_NBUCKETS; b++) {
		calls[b] = 0;
		if (hist_bucket_lo(b) < from || hist_bucket_lo(b) >= below)
			continue;
		if (hist_bucket_lo(b) > REPLAY_MAX_SIZE) {
			*left_out += fr->bucket_calls[b] > 0;
			continue;
		}
		calls[b] = fr->bucket_calls[b];
		sum += calls[b];
	}
	/* Always max_calls: a small profile is scaled up, so that a run is long enough to time. */
	total = sum > 0 ? o->max_calls : 0;
	seq = calloc(total ? total : 1, sizeof(*seq));
	if (!seq)
		return 0;
	apportion(calls, sum, total, k);
	*max_n = 0;
	for (b = 0; b < CP_NBUCKETS; b++) {
		uint64_t lo = hist_bucket_lo(b), hi = hist_bucket_hi(b);
		double mean =
			fr->bucket_calls[b] > 0 ? fr->bucket_bytes[b] / fr->bucket_calls[b] : 0;
		double w = fmin(mean - (double)lo, (double)hi - 1 - mean);

		if (lo > REPLAY_MAX_SIZE || lo < from || lo >= below)
			continue;
		for (i = 0; i < k[b] && n < total; i++) {
			uint64_t len = hi - lo == 1
					       ? lo
					       : (uint64_t)llround(mean - w + 2 * w * rng_unit(&s));

			seq[n].n = len;
			seq[n].cache = draw_cache(o->cache, est_family(fr->family)->has_src, &s);
			if (len > *max_n)
				*max_n = len;
			n++;
		}
	}
	for (i = n; i > 1; i--) { /* Fisher-Yates with the fixed seed */
		size_t j = rng_next(&s) % i;
		struct replay_call tmp = seq[i - 1];

		seq[i - 1] = seq[j];
		seq[j] = tmp;
	}
	*out = seq;
	return n;
}

void replay_shuffled_order(size_t *order, size_t n, uint64_t *seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		size_t j = rng_next(seed) % i, tmp = order[i - 1];

		order[i - 1] = order[j];
		order[j] = tmp;
	}
}
