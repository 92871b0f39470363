/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_mix.h: the mix correction: short lengths shuffled against sorted, per size class */
#ifndef CP_ESTIMATE_MIX_H
#define CP_ESTIMATE_MIX_H

#include "estimate.h"

/* Fills @mix as not applied, saying @why. */
void est_mix_skip(struct est_mix *mix, const char *why);
/*
 * True if @m was measured on this CPU (its meta says measured and names this machine's CPU
 * model); otherwise fills @mix as skipped, saying why.
 */
bool est_mix_model_is_here(const struct costmodel *m, struct est_mix *mix);
/* Calls per sample in @cache's states: EST_MIX_CALLS, or EST_MIX_CALLS_FLUSHED if any flushed. */
size_t est_mix_calls(const struct est_cache *cache);
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
/*
 * Replays samples of @fr's lengths below EST_MIX_CUTOFF (est_mix_calls() calls each, fixed seed,
 * @cache's states), shuffled and sorted by length, through the loop (below each class's end),
 * the string op (from each class's start), today's replica and the dispatch replica of @fr's
 * family, and the threshold policy itself at each inner class edge, and sets each one's
 * per-class penalty (shuffled - sorted ns per call) and the split penalties. @fr must come
 * from est_family_evaluate() (its bucket_calls and today_impl). No call below the cutoff: @mix
 * is skipped and 0 returned. Returns 0, or -errno after printing why.
 */
int est_mix_measure(const struct est_family_result *fr, const struct costmodel *m,
		    const struct est_cache *cache, struct est_mix *mix);

#endif
