// SPDX-License-Identifier: GPL-2.0
/* estimate_mix.c: the mix correction: short lengths shuffled against sorted, per size class */
#include <stdio.h>
#include <string.h>
#include "estimate_mix.h"

const struct est_mix_impl *est_mix_find(const struct est_mix *mix, const char *impl)
{
	size_t i;

	if (!mix || !mix->applied || !impl)
		return NULL;
	for (i = 0; i < mix->nr_impls; i++)
		if (!strcmp(mix->impls[i].impl, impl))
			return &mix->impls[i];
	return NULL;
}

int est_mix_class_of(const struct est_mix_classes *cl, double n)
{
	size_t k;

	for (k = 0; k < cl->nr; k++)
		if (n < (double)cl->edges[k + 1])
			return (int)k;
	return -1;
}

double est_mix_penalty(const struct est_mix *mix, const char *impl, double n)
{
	const struct est_mix_impl *e = est_mix_find(mix, impl);
	int k;

	if (!e || n >= (double)mix->cutoff)
		return 0;
	if (!mix->classes.nr)
		return e->penalty_ns;
	k = est_mix_class_of(&mix->classes, n);
	return k >= 0 ? e->class_penalty_ns[k] : 0;
}

/* Calls of the buckets that start in [lo, hi). */
static double calls_in(const double *bucket_calls, uint64_t lo, uint64_t hi)
{
	double sum = 0;
	int b;

	for (b = 0; b < CP_NBUCKETS; b++)
		if (hist_bucket_lo(b) >= lo && hist_bucket_lo(b) < hi && bucket_calls[b] > 0)
			sum += bucket_calls[b];
	return sum;
}

double est_mix_choose_classes(struct est_mix *mix, const double *bucket_calls)
{
	static const uint64_t edges[] = EST_MIX_EDGES;
	double total = calls_in(bucket_calls, 0, mix->cutoff), below_last = 0;
	struct est_mix_classes *cl = &mix->classes;
	size_t i, k = 0;

	cl->edges[0] = 0;
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]) && k + 2 <= EST_MIX_MAX_CLASSES; i++) {
		double below = calls_in(bucket_calls, 0, edges[i]);

		if (edges[i] >= mix->cutoff || total <= 0)
			break;
		/* A thin class would make its penalty a small difference of two large ones. */
		if (below - below_last < EST_MIX_MIN_SHARE * total ||
		    total - below < EST_MIX_MIN_SHARE * total)
			continue;
		cl->edges[++k] = edges[i];
		below_last = below;
	}
	cl->edges[++k] = mix->cutoff;
	cl->nr = k;
	for (i = 0; i < k; i++)
		cl->calls[i] = calls_in(bucket_calls, cl->edges[i], cl->edges[i + 1]);
	for (i = 0; i < EST_MIX_NR_BUCKETS; i++)
		cl->bucket_calls[i] = hist_bucket_lo(i) < mix->cutoff && bucket_calls[i] > 0
					      ? bucket_calls[i]
					      : 0;
	return total;
}

/* The share of @cl's calls below @t, a bucket that @t splits taken as uniform. */
static double share_below(const struct est_mix_classes *cl, uint64_t t)
{
	double below = 0, all = 0;
	uint32_t b;

	for (b = 0; b < EST_MIX_NR_BUCKETS; b++) {
		uint64_t lo = hist_bucket_lo(b), hi = hist_bucket_hi(b);

		all += cl->bucket_calls[b];
		if (hi <= t)
			below += cl->bucket_calls[b];
		else if (lo < t)
			below += cl->bucket_calls[b] * (double)(t - lo) / (double)(hi - lo);
	}
	return all > 0 ? below / all : 0;
}

double est_mix_split_at(const struct est_mix_classes *cl, const double *split_ns, uint64_t t)
{
	double a, b, f0, f1;
	size_t k;

	if (cl->nr < 2 || t >= cl->edges[cl->nr])
		return 0;
	for (k = 0; k < cl->nr && t >= cl->edges[k + 1]; k++)
		;
	/* edges[k] <= t < edges[k + 1]; the split penalty is 0 at edges 0 and nr (one side). */
	a = k ? split_ns[k] : 0;
	b = k + 1 < cl->nr ? split_ns[k + 1] : 0;
	f0 = share_below(cl, cl->edges[k]);
	f1 = share_below(cl, cl->edges[k + 1]);
	if (t == cl->edges[k] || f1 <= f0)
		return a;
	return a + (b - a) * (share_below(cl, t) - f0) / (f1 - f0);
}

/* The loop side's samples under a threshold: the dispatch replica's if timed, else the loop's. */
static const struct est_mix_impl *loop_side(const struct est_mix *mix, enum est_family f)
{
	const struct est_family_impls *fi = est_family(f);
	const struct est_mix_impl *d = fi->dispatch ? est_mix_find(mix, fi->dispatch) : NULL;

	return d ? d : est_mix_find(mix, fi->loop);
}

/*
 * Split penalty at inner edge k: the policy's total penalty over the short calls minus the
 * loop side's below the edge and the string op's from it, per short call.
 */
static void derive_split(struct est_mix *mix, enum est_family f)
{
	const struct est_mix_impl *lo = loop_side(mix, f);
	const struct est_mix_impl *hi = est_mix_find(mix, est_family(f)->string);
	const struct est_mix_classes *cl = &mix->classes;
	double all = 0, below = 0;
	size_t k;

	memset(mix->split.penalty_ns, 0, sizeof(mix->split.penalty_ns));
	for (k = 0; k < cl->nr; k++)
		all += cl->calls[k];
	if (!lo || !hi || lo->span != EST_MIX_SPAN_BELOW || hi->span != EST_MIX_SPAN_FROM ||
	    all <= 0)
		return;
	for (k = 1; k < cl->nr; k++) {
		below += cl->calls[k - 1];
		mix->split.penalty_ns[k] = mix->split.samples[k].penalty_ns -
					   (below * lo->samples[k - 1].penalty_ns +
					    (all - below) * hi->samples[k].penalty_ns) /
						   all;
	}
}

void est_mix_derive(struct est_mix *mix, enum est_family f)
{
	size_t i, k, nk = mix->classes.nr;

	for (i = 0; i < mix->nr_impls; i++) {
		struct est_mix_impl *e = &mix->impls[i];
		const struct est_mix_sample *all;
		double calls = 0, prev = 0;

		if (!e->nr_samples)
			continue;
		all = e->span == EST_MIX_SPAN_BELOW ? &e->samples[e->nr_samples - 1]
						    : &e->samples[0];
		if (e->span != EST_MIX_SPAN_ALL && e->nr_samples != nk)
			e->span =
				EST_MIX_SPAN_ALL; /* not nested by class: the widest sample only */
		e->shuffled_ns = all->shuffled_ns;
		e->sorted_ns = all->sorted_ns;
		e->predicted_ns = all->predicted_ns;
		e->penalty_ns = all->penalty_ns;
		for (k = 0; k < nk; k++) {
			/* BELOW walks up from class 0, FROM down from the last class. */
			size_t c = e->span == EST_MIX_SPAN_FROM ? nk - 1 - k : k;
			double total;

			if (e->span == EST_MIX_SPAN_ALL) {
				e->class_penalty_ns[c] = all->penalty_ns;
				continue;
			}
			calls += mix->classes.calls[c];
			total = calls * e->samples[c].penalty_ns;
			e->class_penalty_ns[c] = mix->classes.calls[c] > 0
							 ? (total - prev) / mix->classes.calls[c]
							 : 0;
			prev = total;
		}
	}
	derive_split(mix, f);
}

void est_mix_skip(struct est_mix *mix, const char *why)
{
	memset(mix, 0, sizeof(*mix));
	mix->cutoff = EST_MIX_CUTOFF;
	snprintf(mix->why, sizeof(mix->why), "%s", why);
}
