/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_cost.h: one family's per-call costs in a cache mix, resolved from a cost model */
#ifndef CP_ESTIMATE_COST_H
#define CP_ESTIMATE_COST_H

#include <stdbool.h>
#include <stdint.h>
#include "costmodel/costmodel.h"
#include "lib/hist.h"
#include "estimate_family.h"
#include "estimate_input.h"
#include "estimate_options.h"
#include "estimate_policy.h"

/*
 * For each cache state with a non-zero weight: the curves of the loop, the string op and
 * today's implementation, and the dispatch cost a threshold adds on each side.
 * A threshold policy costs loop(n) + d_lo below T and string(n) + d_hi from T. For memcpy,
 * d_lo and d_hi are measured: erms_threshold (a replica of the proposed dispatch, measured at
 * its own threshold Tc) minus memcpy_orig below Tc, minus movsb from Tc (docs/estimate.md). If
 * the model has no movsb curve in a state, erms_threshold's own points from Tc on stand in for
 * string(n) + d_hi (that is how a model built from the seed's published figures is used).
 */
struct est_costs {
	enum copy_family family;
	const struct est_family_impls *fi; /* the policy set (est_impls_for() today's code) */
	double w[COSTMODEL_NR_CACHES]; /* normalised weights, src-flushed folded into warm if no src */
	const struct costmodel_curve *loop[COSTMODEL_NR_CACHES];
	const struct costmodel_curve *string[COSTMODEL_NR_CACHES]; /* bare string op */
	const struct costmodel_curve *today[COSTMODEL_NR_CACHES];
	/* string op behind the dispatch when no bare curve exists: a view of erms_threshold */
	struct costmodel_curve string_side[COSTMODEL_NR_CACHES];
	bool string_via_dispatch[COSTMODEL_NR_CACHES];
	double d_lo[COSTMODEL_NR_CACHES], d_hi[COSTMODEL_NR_CACHES];
	double d_lo_sd[COSTMODEL_NR_CACHES], d_hi_sd[COSTMODEL_NR_CACHES];   /* 0: unknown */
	double d_lo_raw[COSTMODEL_NR_CACHES], d_hi_raw[COSTMODEL_NR_CACHES]; /* before the clamp */
	bool dispatch_clamped; /* a negative difference (noise) was taken as 0 */
	const struct costmodel_curve **dispatch_curves[COSTMODEL_NR_CACHES]; /* erms_threshold */
	size_t nr_dispatch[COSTMODEL_NR_CACHES];
	bool dispatch_measured;
	bool d_lo_measured, d_hi_measured; /* some state had points on that side */
	int runs;	 /* the model's runs per point, for the points' standard errors */
	double max_size; /* the largest size every used curve was measured at */
	/*
	 * The distance axis (est_costs_set_dist()): these costs with the curves calibrate
	 * --distance measured in a short-distance class (NULL: none), and the family's recorded
	 * calls per class per bucket (CP_NBUCKETS x CP_NR_DIST, borrowed; NULL: all at 0).
	 */
	struct est_costs *at[CP_NR_DIST];
	const double *dist;
};

/*
 * Resolves the curves @f needs in the states @cache weighs, plus @today_impl's. Prints which
 * implementation and cache state @m lacks and returns -ENOENT if one is missing.
 */
int est_costs_resolve(struct est_costs *c, const struct costmodel *m, const char *model_name,
		      enum copy_family f, const char *today_impl, const struct est_cache *cache);
/* est_costs_resolve() that prints nothing: what is missing goes into @why. */
int est_costs_try(struct est_costs *c, const struct costmodel *m, const char *model_name,
		  enum copy_family f, const char *today_impl, const struct est_cache *cache,
		  char *why, size_t why_len);
void est_costs_release(struct est_costs *c);
/*
 * Costs every bucket by its recorded distance classes (@dist, as est_family_distances() gives
 * them; kept by reference): a class whose curves @m has (calibrate --distance) at those, the
 * rest at the plain curves (distance 0).
 */
void est_costs_set_dist(struct est_costs *c, const struct costmodel *m, const char *today_impl,
			const double *dist);
/* Recomputes the dispatch costs from the curves (after their points changed). */
void est_costs_refresh(struct est_costs *c);

/* Placement moves a short call by a few tenths of a ns: below this, no dispatch is refused. */
#define EST_DISPATCH_SLACK_NS 0.5
/*
 * A dispatch cannot cost less than nothing. -EDOM and @why if every compared point of one side
 * of a dispatch curve ran faster in its slowest run than the loop (below T) or the string op
 * (from T) in its fastest, by more than EST_DISPATCH_SLACK_NS: a calibration to be measured
 * again, then refused. A negative difference within the runs' spread is noise: the dispatch
 * cost is then taken as 0 (est_costs_refresh()), and said so. 0 where no point can be compared.
 */
int est_costs_check_dispatch(const struct est_costs *c, char *why, size_t len);
/* est_costs_check_dispatch() for every family and cache state @m has a dispatch replica in. */
int est_model_check_dispatch(const struct costmodel *m, char *why, size_t len);

enum est_side {
	EST_SIDE_TODAY,
	EST_SIDE_LOOP,
	EST_SIDE_STRING,
	EST_SIDE_LOOP_BARE,
	EST_SIDE_STRING_BARE
};

/* Per-call cost in ns at length @n of one side, averaged over the cache mix. */
double est_cost_side(const struct est_costs *c, enum est_side side, double n);
/*
 * Cost of all calls of one bucket [lo, hi) under policy @p: @calls calls of mean length
 * @mean. *@bound (unless NULL) gets the bound on the error of costing at the mean (see
 * estimate_cost.c);
 * *@split is set if @p's threshold lies inside the bucket.
 */
double est_cost_bucket(const struct est_costs *c, const struct est_policy *p, uint64_t lo,
		       uint64_t hi, double calls, double mean, double *bound, bool *split);

/* The first length a threshold @t sends to the string op: @t (kernel), @t + 1 (glibc: n > T). */
uint64_t est_string_from(const struct est_costs *c, uint64_t t);

/* Calls per unit of n[] for a bucket of mean @mean: 1, or for samples k / today(mean). */
double est_calls_per_unit(const struct est_costs *c, const struct est_input *in,
			  const struct est_site *s, double mean);

/* Standard error in ns of a point's median, from its spread over @runs runs; 0 if unknown. */
double est_point_sigma(const struct costmodel_point *p, int runs);

#endif
