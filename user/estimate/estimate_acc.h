/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_acc.h: a family's buckets costed under every policy and summed, with error terms */
#ifndef CP_ESTIMATE_ACC_H
#define CP_ESTIMATE_ACC_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/hist.h"
#include "estimate_cost.h"
#include "estimate_input.h"
#include "estimate_policy.h"

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
void est_acc_run(const struct est_costs *c, const struct est_input *in, enum copy_family f,
		 const struct est_policy *pol, size_t np, const struct est_site *only,
		 struct est_acc *a, bool full);

#endif
