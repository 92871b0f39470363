/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_mix_measure.h: the mix correction measured: a profile's short lengths replayed */
#ifndef CP_ESTIMATE_MIX_MEASURE_H
#define CP_ESTIMATE_MIX_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include "calib/costmodel.h"
#include "estimate_mix.h"
#include "estimate_options.h"

struct est_family_result;

/* Calls in each sample, runs (the median is kept) and the fixed seed of the replays. */
#define EST_MIX_CALLS 20000
/* ... when some calls are flushed (each is timed alone after its flush: far slower) */
#define EST_MIX_CALLS_FLUSHED 10000
#define EST_MIX_RUNS 11
#define EST_MIX_SEED 0x6a09e667f3bcc909ULL

/*
 * True if @m was measured on this CPU (its meta says measured and names this machine's CPU
 * model); otherwise fills @mix as skipped, saying why.
 */
bool est_mix_model_is_here(const struct costmodel *m, struct est_mix *mix);
/* Calls per sample in @cache's states: EST_MIX_CALLS, or EST_MIX_CALLS_FLUSHED if any flushed. */
size_t est_mix_calls(const struct est_cache *cache);
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
