/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_model.h: a family's estimate from a cost model: every policy, its uncertainty */
#ifndef CP_ESTIMATE_MODEL_H
#define CP_ESTIMATE_MODEL_H

#include "costmodel/costmodel.h"
#include "estimate_input.h"
#include "estimate_options.h"
#include "estimate_result.h"

/*
 * Estimates every policy of @o for family @f of @in with @m's costs, with uncertainty.
 * @m's points are perturbed and restored meanwhile (for the calibration spread). Returns 0,
 * -ENOENT if @m lacks a needed curve (printed, naming the implementation and cache state), or
 * -ENOMEM.
 */
int est_family_evaluate(const struct est_input *in, enum copy_family f, struct costmodel *m,
			const char *model_name, const struct est_options *o,
			struct est_family_result *r);

/*
 * The best row (docs/estimate.md#the-verdict): the cheapest the kernel could run (today,
 * always, each T; never the oracle), measured if a measurement applies; a row dearer than
 * today is never best. Of the thresholds whose figures are tied with it (their 95% intervals
 * overlap), the one nearest today's threshold. Also the rows within
 * EST_FLAT_FRACTION of the cheapest, and the --at row.
 */
void est_family_choose_best(const struct est_options *o, struct est_family_result *r);

#endif
