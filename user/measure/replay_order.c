// SPDX-License-Identifier: GPL-2.0
/* replay_order.c: call sequences made in the manner of a mix's recorded runs of lengths */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/hist.h"
#include "replay_order.h"
#include "replay_rng.h"

/* True if the @k lengths ending at place @a equal those ending just before place @b. */
static bool same_context(const struct replay_order *o, const uint32_t *pos, size_t a, size_t b,
			 unsigned int k)
{
	unsigned int j;

	if (pos[a] + 1 < k || pos[b] < k)
		return false;
	for (j = 0; j < k; j++)
		if (o->len[a - j] != o->len[b - 1 - j])
			return false;
	return true;
}

/* Place @a's next places: those after the longest context seen often enough. */
static void find_next(struct replay_order *o, const uint32_t *pos, size_t a, uint64_t *seed)
{
	unsigned int k;
	size_t b, seen;

	for (k = REPLAY_ORDER_MAX_CONTEXT; k >= 1; k--) {
		uint32_t *c = &o->cand[a * REPLAY_ORDER_MAX_CANDS];

		seen = 0;
		for (b = 0; b < o->nr; b++) {
			if (!same_context(o, pos, a, b, k))
				continue;
			/* reservoir: a uniform subset when more were seen than are kept */
			if (seen < REPLAY_ORDER_MAX_CANDS)
				c[seen] = (uint32_t)b;
			else if (replay_rng_below(seed, seen + 1) < REPLAY_ORDER_MAX_CANDS)
				c[replay_rng_below(seed, REPLAY_ORDER_MAX_CANDS)] = (uint32_t)b;
			seen++;
		}
		if (seen >= REPLAY_ORDER_MIN_SEEN) {
			o->nr_cand[a] = seen < REPLAY_ORDER_MAX_CANDS ? (uint32_t)seen
								      : REPLAY_ORDER_MAX_CANDS;
			return;
		}
	}
	o->nr_cand[a] = 0;
}

/* Each run's start weighed by its first length's bucket: the mix's share over the starts'. */
static void weigh_starts(struct replay_order *o, const struct replay_mix *mx)
{
	double acc = 0;
	size_t i, j, k;

	for (i = 0; i < o->nr_starts; i++) {
		uint32_t b = cp_bucket_of(o->len[o->starts[i]]);
		double mix = 0, starts = 0;

		for (k = 0; k < mx->nr; k++)
			if (cp_bucket_of(mx->lo[k]) == b)
				mix += mx->cdf[k] - (k ? mx->cdf[k - 1] : 0);
		for (j = 0; j < o->nr_starts; j++)
			starts += cp_bucket_of(o->len[o->starts[j]]) == b;
		acc += mix / starts;
		o->start_cdf[i] = acc;
	}
	for (i = 0; i < o->nr_starts; i++) /* no start in the mix's buckets: all alike */
		o->start_cdf[i] = acc > 0 ? o->start_cdf[i] / acc : (double)(i + 1) / o->nr_starts;
	o->start_cdf[o->nr_starts - 1] = 1;
}

int replay_order_build(struct replay_order *o, const struct replay_mix *mx)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL; /* the subsets kept: the same on every run */
	uint32_t *pos = NULL, j;
	size_t i, n = 0;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < mx->nr_runs; i++)
		n += mx->runs[i].nr;
	if (!n)
		return 0;
	o->len = calloc(n, sizeof(*o->len));
	o->starts = calloc(mx->nr_runs, sizeof(*o->starts));
	o->start_cdf = calloc(mx->nr_runs, sizeof(*o->start_cdf));
	o->cand = calloc(n * REPLAY_ORDER_MAX_CANDS, sizeof(*o->cand));
	o->nr_cand = calloc(n, sizeof(*o->nr_cand));
	pos = calloc(n, sizeof(*pos));
	if (!o->len || !o->starts || !o->start_cdf || !o->cand || !o->nr_cand || !pos) {
		free(pos);
		return -ENOMEM;
	}
	for (i = 0; i < mx->nr_runs; i++) {
		o->starts[o->nr_starts++] = (uint32_t)o->nr;
		for (j = 0; j < mx->runs[i].nr; j++) {
			pos[o->nr] = j;
			o->len[o->nr++] = mx->runs[i].len[j];
		}
	}
	for (i = 0; i < o->nr; i++)
		find_next(o, pos, i, &seed);
	weigh_starts(o, mx);
	free(pos);
	return 0;
}

bool replay_order_informative(const struct replay_mix *mx)
{
	struct replay_order o;
	size_t i, known = 0;
	bool yes;

	if (replay_order_build(&o, mx) || !o.nr) {
		replay_order_free(&o);
		return false;
	}
	for (i = 0; i < o.nr; i++)
		known += o.nr_cand[i] > 0;
	yes = 2 * known >= o.nr;
	replay_order_free(&o);
	return yes;
}

void replay_order_free(struct replay_order *o)
{
	free(o->len);
	free(o->starts);
	free(o->start_cdf);
	free(o->cand);
	free(o->nr_cand);
	memset(o, 0, sizeof(*o));
}

void replay_order_block(const struct replay_order *o, uint64_t *seed, uint64_t *out, size_t n)
{
	double u = replay_rng_unit(seed);
	size_t i = 0, at;

	while (i + 1 < o->nr_starts && o->start_cdf[i] <= u)
		i++;
	at = o->starts[i];

	for (i = 0; i < n; i++) {
		if (i) {
			uint32_t c = o->nr_cand[at];

			at = c ? o->cand[at * REPLAY_ORDER_MAX_CANDS + replay_rng_below(seed, c)]
			       : replay_rng_below(seed, o->nr);
		}
		out[i] = o->len[at];
	}
}
