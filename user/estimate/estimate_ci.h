/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_ci.h: the calibration part of the estimate's uncertainty */
#ifndef CP_ESTIMATE_CI_H
#define CP_ESTIMATE_CI_H

#include <stddef.h>
#include "costmodel/costmodel.h"
#include "estimate_cost.h"
#include "estimate_input.h"
#include "estimate_policy.h"
#include "estimate_result.h"

/*
 * Fills rows[].var_calib: each measured point is moved by its standard error and the change
 * of every policy's ratio to today is summed in quadrature (docs/estimate.md#uncertainty).
 * The points are restored. 0 or -ENOMEM.
 */
int est_calib_variance(struct est_costs *c, const struct est_input *in, enum copy_family f,
		       const struct costmodel *m, const struct est_policy *pol, size_t np,
		       struct est_family_result *r);

#endif
