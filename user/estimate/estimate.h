/* SPDX-License-Identifier: GPL-2.0 */
/* estimate.h: what another REP MOVSB/STOSB threshold would save: inputs, policies, results */
#ifndef CP_ESTIMATE_H
#define CP_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "calib/costmodel.h"
#include "lib/hist.h"
#include "profile/profile.h"
#include "estimate_family.h"
#include "estimate_options.h"
#include "estimate_input.h"
#include "estimate_policy.h"

/* Thresholds whose total is within this fraction of the best one count as "as good". */
#define EST_FLAT_FRACTION 0.01

/* One policy's estimate over an input. */
struct est_row {
	struct est_policy pol;
	double total_ns;    /* over every call of the input */
	double ns_per_call;
	double delta_ns;    /* total_ns minus today's */
	double delta_pct;   /* 100 * delta_ns / today's total */
	double ci_low;	    /* 95% interval of delta_pct (percentage points) */
	double ci_high;
	double bound_ns;    /* bound on the error of costing each bucket at its mean length */
	double var_count;   /* variance of delta_pct / 100 from counting (Poisson) */
	double var_calib;   /* ... and from the calibration spread */
};

/* A site's share of the estimate at the chosen policy. */
struct est_site_row {
	const struct est_site *site;
	double calls, today_ns, at_ns;
};

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
#define EST_MIX_CALLS 20000
/* ... when some calls are flushed (each is timed alone after its flush: far slower) */
#define EST_MIX_CALLS_FLUSHED 10000
#define EST_MIX_RUNS 11
#define EST_MIX_SEED 0x6a09e667f3bcc909ULL
#define EST_MIX_MAX_IMPLS 4
/* Candidate class edges below the cutoff (bucket edges, so no bucket straddles a class). */
#define EST_MIX_EDGES { 32, 64, 128, 256 }
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
	bool applied;	  /* false: the pure model (see @why) */
	char why[192];	  /* why not applied */
	uint64_t cutoff;  /* lengths below this get the penalties */
	size_t calls;	  /* calls in each sample */
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

/*
 * The neighbour correction (docs/estimate.md#the-neighbour-correction). The mix correction
 * replays short lengths among themselves; what a call's neighbours of every length do to it is
 * left: a long REP MOVSB's stores drain under the short calls after it (it costs less in the mix
 * than timed back to back, as calibrate times it), a threshold's branch mispredicts between the
 * short and the long calls, a loop's tail branches mispredict on lengths spread within a bucket.
 * So every policy row is replayed on the whole mix (the sequence --validate replays), shuffled
 * and sorted by length, interleaved in one run; rows that run the same code on every call share
 * their group's mean. The order penalty, shuffled - sorted per call, is taken back to the cost
 * model's units by the replay's speed (today's sorted cost over today's pure one: a machine
 * slower or faster than at calibration scales both orders) and added: mispredictions add time.
 * The row's total becomes pure + penalty / speed per call; residual_ns is what that adds beyond
 * the mix correction (the row's mixed total minus its pure one), added to the row's every call
 * (and to each site in proportion to its calls).
 */
#define EST_NB_SEED 0xbb67ae8584caa73bULL

struct est_neighbour {
	bool applied;	 /* false: not run (see @why) */
	char why[192];
	size_t calls;	 /* calls replayed in each order */
	int runs, cpu;
	double speed;	 /* today's sorted replay / today's pure model, per call */
	size_t nr_rows;	 /* the arrays below are per policy row (NAN: the oracle) */
	double *shuffled_ns, *sorted_ns, *order_ns, *residual_ns; /* order: shuffled - sorted */
};

void est_neighbour_free(struct est_neighbour *nb);

struct est_family_result {
	enum est_family family;
	const char *today_impl;
	char today_why[128];
	bool today_approx, today_guessed;
	bool dispatch_measured;	/* the dispatch cost came from a measured replica */
	bool dispatch_lo_measured, dispatch_hi_measured; /* ... below T, from T */
	double dispatch_lo_ns, dispatch_hi_ns; /* the cost a threshold adds (cache mix) */
	struct est_row *rows;	/* rows[0] is today */
	size_t nr_rows;
	int best;		/* the best threshold row */
	int oracle;		/* the oracle row */
	int at;			/* the row of the per-site breakdown */
	uint64_t flat_lo, flat_hi; /* thresholds within EST_FLAT_FRACTION of the best */
	double calls;		/* calls (converted from samples for time-weighted sites) */
	double samples;		/* time-weighted sites' samples */
	double share;		/* today's share of recorded CPU time, -1 if unknown */
	double beyond_calls;	/* calls longer than the cost model's largest measured size */
	bool split_buckets;	/* a threshold fell inside a bucket (costed by assumption) */
	struct est_site_row *sites;
	size_t nr_sites;
	double *bucket_calls;	/* CP_NBUCKETS: calls per bucket over the family's sites ... */
	double *bucket_bytes;	/* ... and their lengths: what --validate replays */
	struct est_mix mix;	/* the mix correction, as applied or why not (set by the caller) */
	struct est_neighbour nb; /* the neighbour correction, likewise */
	double *measured_pct;	/* --validate: per row, measured delta % (NAN: not replayed) */
	size_t replay_calls;
	int replay_runs, replay_cpu;
	/* --validate: the largest measured gap (points) between rows that run the same code on
	 * every replayed call (e.g. today and always, or two T with no length between them): the
	 * replay's noise floor; NAN if no two rows do */
	double noise_floor_pct;
};

/*
 * Estimates every policy of @o for family @f of @in with @m's costs, with uncertainty.
 * @m's points are perturbed and restored meanwhile (for the calibration spread). Returns 0,
 * -ENOENT if @m lacks a needed curve (printed, naming the implementation and cache state), or
 * -ENOMEM.
 */
int est_family_evaluate(const struct est_input *in, enum est_family f, struct costmodel *m,
			const char *model_name, const struct est_options *o,
			struct est_family_result *r);
void est_family_result_free(struct est_family_result *r);

/*
 * --validate's verdict on the best threshold: the measured best threshold row (-1: none
 * measured), and whether the predicted best is the same optimum: the same row, or measured
 * within the larger of the noise floor and EST_FLAT_FRACTION of today of the measured best
 * (*@gap_pp: how far, in points). docs/estimate.md#--validate
 */
int est_validation_best(const struct est_family_result *fr, double *gap_pp, bool *same);

/* Output: docs/estimate.md. */
struct est_report {
	const struct est_input *in;
	const struct costmodel *m;
	const char *model_name;
	const struct est_options *o;
	struct est_family_result *fam;
	size_t nr_fam;
};

void est_print_text(FILE *f, const struct est_report *r, bool verbose);
/* The summary paragraph unwrapped (malloc'd), or NULL. */
char *est_summary_text(const struct est_report *r, const struct est_family_result *fr);
/* The paste-ready commit-message paragraph for one family (wrapped at 72 columns). */
void est_print_summary(FILE *f, const struct est_report *r, const struct est_family_result *fr);
json_object *est_report_to_json(const struct est_report *r);

#endif
