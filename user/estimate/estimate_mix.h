/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_mix.h: the mix correction: short lengths shuffled against sorted, per size class */
#ifndef CP_ESTIMATE_MIX_H
#define CP_ESTIMATE_MIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/hist.h"
#include "estimate_family.h"

/*
 * The mix correction (docs/estimate.md#the-mix-correction). calibrate times each length over
 * and over, so the loop replicas' length-dependent branches are always predicted; a profile's
 * lengths arrive mixed. Each replica a family's policies run is replayed on samples of the
 * profile's own lengths below @cutoff, once shuffled (as the profile's calls come) and once
 * sorted by length (as calibrate times them); the difference, penalty = shuffled - sorted ns per
 * call (mispredictions add time, they do not scale it), is added to its cost below @cutoff.
 * Both orders are timed interleaved in one run, so the replay's own per-call overhead and the
 * machine's speed cancel out.
 *
 * The penalty is per size class: the lengths below @cutoff are split at the powers of two
 * EST_MIX_EDGES (an edge is kept only if it leaves at least EST_MIX_MIN_SHARE of the short
 * calls on each side). Under a threshold T the loop runs the calls below T, the string op those
 * from T, so each is timed on what it would run: a loop-side replica (the loop, the dispatch
 * replica) on the lengths below each class's end, the string op on the lengths from each
 * class's start. A class's penalty is the difference of two nested samples' total penalties
 * over the calls it adds, so that for T at a class edge the loop's penalties below T add up to
 * exactly the sample below T, the string op's from T to the sample from T. A dispatch replica
 * (erms_threshold, its T at or above @cutoff: the samples run its loop side) adds its penalties
 * to the loop behind the dispatch (loop + d_lo) of the threshold policies. A threshold among the
 * short lengths also adds its split penalty (struct est_mix_split) to every short call.
 */
#define EST_MIX_CUTOFF 512
#define EST_MIX_MAX_IMPLS 4
/* Candidate class edges below the cutoff (bucket edges, so no bucket straddles a class). */
#define EST_MIX_EDGES                                                                              \
	{                                                                                          \
		32, 64, 128, 256                                                                   \
	}
#define EST_MIX_MAX_CLASSES 5
#define EST_MIX_MIN_SHARE 0.05

/*
 * Which lengths a replica is timed on: nested samples below each class's end (loop side), from
 * each class's start (string op), or all of them once (today's code when it is neither: it runs
 * every short call, under one policy only).
 */
enum est_mix_span { EST_MIX_SPAN_BELOW, EST_MIX_SPAN_FROM, EST_MIX_SPAN_ALL };

/* One timed sample of a replica: the profile's lengths in [lo, hi), ns per call. */
struct est_mix_sample {
	uint64_t lo, hi;
	uint64_t t;	     /* a split's threshold (est_mix_split); 0 otherwise */
	double shuffled_ns;  /* per call over the sample, shuffled */
	double sorted_ns;    /* ... the same calls sorted by length */
	double predicted_ns; /* ... what the cost model says for them (a check on the model) */
	double penalty_ns;   /* shuffled - sorted; 0 if either is unusable */
};

struct est_mix_impl {
	const char *impl; /* asm-ref name (static string) */
	enum est_mix_span span;
	/* over every length below the cutoff (the widest sample) */
	double shuffled_ns, sorted_ns, predicted_ns, penalty_ns;
	/* BELOW: sample k is [0, edge k+1); FROM: [edge k, cutoff); ALL: one, [0, cutoff) */
	struct est_mix_sample samples[EST_MIX_MAX_CLASSES];
	size_t nr_samples;
	double class_penalty_ns[EST_MIX_MAX_CLASSES]; /* added to class k's lengths */
};

/* The buckets below EST_MIX_CUTOFF = 2^9: the exact ones, then CP_SUBS per power of two. */
#define EST_MIX_NR_BUCKETS (CP_EXACT_LIMIT + (9 - 6) * CP_SUBS)

/* The size classes below the cutoff: class k is [edges[k], edges[k + 1]). */
struct est_mix_classes {
	uint64_t edges[EST_MIX_MAX_CLASSES + 1]; /* edges[0] = 0, edges[nr] = the cutoff */
	double calls[EST_MIX_MAX_CLASSES];	 /* the profile's calls in each class */
	size_t nr;
	double bucket_calls[EST_MIX_NR_BUCKETS]; /* ... and in each bucket below the cutoff */
};

/*
 * The split. Under a threshold T among the short lengths the two sides run interleaved, and
 * the dispatch's own branch (n < T) mispredicts as the lengths come; neither side's samples see
 * that. At each inner class edge T the policy itself (the dispatch replica with its T set, or
 * the loop below T and the string op from T switched in C, as --validate runs it) is timed on
 * all the short lengths, shuffled and sorted; what its penalty exceeds the two sides' own (the
 * loop side's below T, the string op's from T), spread over every short call, is the split
 * penalty of T. It is 0 at 0 and at the cutoff (one side only), and interpolated between edges
 * in proportion to the share of short calls below T.
 */
struct est_mix_split {
	const char *impl; /* the dispatch replica, or NULL: the loop and string op switched in C */
	struct est_mix_sample samples[EST_MIX_MAX_CLASSES + 1]; /* [k]: T = edges[k], 0 < k < nr */
	double penalty_ns[EST_MIX_MAX_CLASSES + 1];		/* per short call, T = edges[k] */
};

struct est_mix {
	bool applied;	 /* false: the pure model (see @why) */
	char why[512];	 /* why not applied */
	uint64_t cutoff; /* lengths below this get the penalties */
	size_t calls;	 /* calls in each sample */
	int runs, cpu;
	struct est_mix_classes classes; /* nr 0: one class, each impl's penalty_ns */
	struct est_mix_impl impls[EST_MIX_MAX_IMPLS];
	size_t nr_impls;
	struct est_mix_split split; /* measured if classes.nr > 1 */
};

/* @impl's entry in @mix, or NULL (also if @mix is NULL or not applied). */
const struct est_mix_impl *est_mix_find(const struct est_mix *mix, const char *impl);
/* The class of length @n, or -1 from the last edge (the cutoff) on, or with no class. */
int est_mix_class_of(const struct est_mix_classes *cl, double n);
/* @impl's penalty in ns per call at length @n (its class's); 0 without one, or from the cutoff. */
double est_mix_penalty(const struct est_mix *mix, const char *impl, double n);
/*
 * The split penalty of threshold @t (ns per call below the cutoff) from @cl and the penalties
 * at its edges @split_ns; 0 at and beyond the last edge, or with fewer than two classes.
 */
double est_mix_split_at(const struct est_mix_classes *cl, const double *split_ns, uint64_t t);

/* Fills @mix as not applied, saying @why. */
void est_mix_skip(struct est_mix *mix, const char *why);
/*
 * Splits the lengths below @mix->cutoff into size classes at the edges EST_MIX_EDGES that leave
 * at least EST_MIX_MIN_SHARE of the calls below the cutoff on each side (walking up from 0, each
 * class since the last edge kept), from @bucket_calls (CP_NBUCKETS calls per bucket). Fills
 * @mix->classes (one class, [0, cutoff), if no edge qualifies).
 * Returns the calls below the cutoff.
 */
double est_mix_choose_classes(struct est_mix *mix, const double *bucket_calls);
/*
 * From each implementation's samples (their penalty_ns) and @mix's classes, sets its
 * class_penalty_ns and its figures over every length below the cutoff (the widest sample).
 * BELOW: class k adds (calls below its end x penalty of the sample below it) minus the same
 * for class k - 1, per call of class k; FROM: likewise from the top; ALL: the one penalty.
 * Then the split penalty at each inner edge (family @f's loop side and string op).
 */
void est_mix_derive(struct est_mix *mix, enum est_family f);

#endif
