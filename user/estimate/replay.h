/* SPDX-License-Identifier: GPL-2.0 */
/* replay.h: time a profile's length sequence through the replicas (--validate, mix correction) */
#ifndef CP_REPLAY_H
#define CP_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include "calib/costmodel.h"
#include "estimate_mix.h"
#include "estimate_options.h"
#include "estimate_result.h"
#include "replay_sequence.h"

/*
 * Draws a shuffled sequence of @o->max_calls lengths from @fr's buckets (counts in proportion,
 * lengths spread evenly around each bucket's mean within it), checks the bytes of every
 * implementation used, then times today's policy, "always" and each threshold row of @fr
 * through the asm-ref replicas (memcpy thresholds: erms_threshold with its T set; the other
 * families: the loop below T, the string op from T, chosen in C), interleaved, on one CPU, in
 * @o->cache's states. Fills @fr->measured_pct (NAN for rows not replayed: the oracle).
 * Returns 0, or -errno after printing why.
 */
int replay_family(struct est_family_result *fr, const struct replay_opts *o);

/* At most this many samples per replay_mix() (each is timed twice: shuffled and sorted). */
#define REPLAY_MIX_MAX_SAMPLES ((EST_MIX_MAX_IMPLS + 1) * EST_MIX_MAX_CLASSES)

/* One replica (or policy) on one range of the profile's lengths, for replay_mix(). */
struct replay_mix_sample {
	const char *impl;   /* asm-ref name; below @t if @string is set */
	const char *string; /* NULL, or the replica from @t on, switched in C */
	uint64_t t;	    /* ... or, without @string, a dispatch replica's T (0: its curve's) */
	uint64_t lo, hi;    /* the buckets that start in [lo, hi) take part */
};

/* One sample's cost, ns per call. */
struct replay_mix_cost {
	double shuffled_ns;  /* the sample in its shuffled order */
	double sorted_ns;    /* the same calls sorted by length (each length's calls in a row) */
	double predicted_ns; /* what the cost model says for the same calls (NAN: no curve) */
};

/*
 * estimate's mix correction (docs/estimate.md#the-mix-correction): for each of the @nr samples
 * @s, draws @o->max_calls lengths from @fr's buckets in [lo, hi) exactly as replay_family()
 * does (same spread, seed, shuffle and cache states; samples of the same range share their
 * calls), checks the replica's bytes, and times it over the shuffled sequence and over the same
 * calls sorted by length, every sample's two orders interleaved in one run (@o->runs runs, each
 * chunk's median kept). Fills @cost[i] for @s[i]; *@cpu gets the CPU it ran on. Returns 0,
 * -ENOENT if a sample has no calls, or -errno after printing why.
 */
int replay_mix(const struct est_family_result *fr, const struct replay_opts *o,
	       const struct costmodel *m, const struct replay_mix_sample *s, size_t nr,
	       struct replay_mix_cost *cost, int *cpu);

/*
 * estimate's neighbour correction (docs/estimate.md#the-neighbour-correction): the sequence
 * replay_family() replays (all of @fr's lengths, same seed, spread and cache states), and the
 * same calls sorted by length, through every row's policy as --validate runs it, all of them
 * interleaved in one run. Sets @shuffled_ns[i] and @sorted_ns[i] (ns per call; NAN for the
 * oracle) for @fr's row i; *@cpu gets the CPU it ran on. Returns 0, -ENOENT if @fr has no calls
 * to replay, or -errno after printing why.
 */
int replay_orders(const struct est_family_result *fr, const struct replay_opts *o,
		  double *shuffled_ns, double *sorted_ns, int *cpu);

#endif
