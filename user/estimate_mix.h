/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_mix.h: the mix correction: a replica's short lengths shuffled against sorted */
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
/*
 * Replays a sample of @fr's lengths below EST_MIX_CUTOFF (EST_MIX_CALLS calls, fixed seed,
 * @cache's states), shuffled and sorted by length, through the loop, the string op, today's
 * replica and the dispatch replica of @fr's family, and sets each one's
 * penalty = shuffled - sorted ns per call. @fr must come
 * from est_family_evaluate() (its bucket_calls and today_impl). No call below the cutoff: @mix
 * is skipped and 0 returned. Returns 0, or -errno after printing why.
 */
int est_mix_measure(const struct est_family_result *fr, const struct costmodel *m,
		    const struct est_cache *cache, struct est_mix *mix);

#endif
