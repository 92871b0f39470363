/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_model.h: the estimator's internals shared by the model and its uncertainty */
#ifndef CP_ESTIMATE_MODEL_H
#define CP_ESTIMATE_MODEL_H

#include "estimate_cost.h"

/* Sums over a family's buckets, per policy (policy 0 is today). */
struct est_acc {
	double total[EST_MAX_POLICIES];
	double bound[EST_MAX_POLICIES];
	/* Poisson counting: sums of n*a^2, n*a*t and n*t^2 (a: policy, t: today per unit) */
	double saa[EST_MAX_POLICIES], sac[EST_MAX_POLICIES], scc;
	double calls, samples, beyond;
	bool split;
	double bucket_calls[CP_NBUCKETS], bucket_bytes[CP_NBUCKETS]; /* @full only */
};

/*
 * Costs every bucket of family @f in @in (only site @only if not NULL) under @np policies.
 * Without @full only totals and calls are summed (the uncertainty loop's fast path).
 */
void est_acc_run(const struct est_costs *c, const struct est_input *in, enum est_family f,
		 const struct est_policy *pol, size_t np, const struct est_site *only,
		 struct est_acc *a, bool full);

/*
 * Fills rows[].var_calib: each measured point is moved by its standard error and the change
 * of every policy's ratio to today is summed in quadrature (docs/estimate.md#uncertainty).
 * The points are restored. 0 or -ENOMEM.
 */
int est_calib_variance(struct est_costs *c, const struct est_input *in, enum est_family f,
		       const struct costmodel *m, const struct est_policy *pol, size_t np,
		       struct est_family_result *r);

/* Standard error in ns of a point's median, from its spread over @runs runs; 0 if unknown. */
double est_point_sigma(const struct costmodel_point *p, int runs);

#endif
