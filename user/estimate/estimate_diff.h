/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_diff.h: two profiles' modelled copy time, and its change split into workload and code */
#ifndef CP_ESTIMATE_DIFF_H
#define CP_ESTIMATE_DIFF_H

#include "costmodel/costmodel.h"
#include "profile/profile_diff.h"
#include "estimate_options.h"

/*
 * Fills every site and family row's model of @d from @m in @cache, by estimate's own cost of a
 * bucket (today's policy, no mix correction: the pure model, as estimate --no-mix-correction):
 *   ns[0]    = cost(BEFORE's lengths, BEFORE's code)
 *   ns[1]    = cost(AFTER's lengths, AFTER's code)
 *   ns_mixed = cost(AFTER's lengths, BEFORE's code)
 * each per exposure (second, or recording), where a side's code is the replica of the dispatch
 * its profile recorded (meta.dispatch), or of the table's for its kernel and CPU flags. The
 * change ns[1] - ns[0] is then (ns_mixed - ns[0]) from the lengths (the workload) plus
 * (ns[1] - ns_mixed) from the code (docs/diff.md#modelled-time). Sampled sites are converted
 * to calls as estimate converts them, each with its own side's code. Resorts @d.
 * 0, or -ENOENT (printed) when @m lacks a curve a family needs, -ENOMEM.
 */
int est_diff_model(struct profile_diff *d, const struct costmodel *m, const char *model_name,
		   const struct est_cache *cache);

#endif
