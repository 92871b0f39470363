// SPDX-License-Identifier: GPL-2.0
/* calib_judge.c: every point judged against this machine's measured limits and its neighbours */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "calib_check.h"
#include "calib_judge.h"
#include "lib/log.h"

/* The judging, then at most twice more after measuring the points that failed again. */
#define JUDGE_TRIES 3
/* A point measured again gets at least this many runs (or --runs), so that it has an interval. */
#define JUDGE_MIN_RUNS 3

/* What the judging of a point found. */
enum verdict {
	POINT_OK,
	POINT_BELOW_FLOOR, /* faster than this machine measured it can be */
	POINT_OFF,	   /* CALIB_NEIGHBOUR_FACTOR off both neighbours: measured again */
};

static double point_ns(const struct calib_judge *j, size_t k)
{
	return calib_runs_median(j->rs, k) * 1e9 / j->t->tsc_hz;
}

/* Half-width of point @k's 95% interval, in ns. */
static double point_ci_ns(const struct calib_judge *j, size_t k)
{
	return calib_runs_rel_ci(j->rs, k) * point_ns(j, k);
}

static const struct calib_judge_curve *curve_of(const struct calib_judge *j, size_t k)
{
	return &j->curves[k / j->rs->nr_sizes];
}

/* Point @k's neighbours on its curve (NAN at either end). */
static void neighbours(const struct calib_judge *j, size_t k, double *prev, double *next)
{
	size_t i = k % j->rs->nr_sizes;

	*prev = i > 0 ? point_ns(j, k - 1) : NAN;
	*next = i + 1 < j->rs->nr_sizes ? point_ns(j, k + 1) : NAN;
}

/* Point @k against @lim and its neighbours. @why (may be NULL) gets the reason in words. */
static enum verdict judge_point(const struct calib_judge *j, const struct costmodel_limits *lim,
				size_t k, char *why, size_t len)
{
	const struct calib_judge_curve *c = curve_of(j, k);
	uint64_t size = j->sizes[k % j->rs->nr_sizes];
	double x = point_ns(j, k), prev, next;
	char reason[256];
	const char *off;
	int n;

	n = snprintf(why, why ? len : 0, "%s %s %llu B", c->name, costmodel_cache_name(c->cache),
		     (unsigned long long)size);
	if (costmodel_limits_check(lim, size, x, c->copies, reason, sizeof(reason))) {
		if (why && n >= 0 && (size_t)n < len)
			snprintf(why + n, len - (size_t)n, ": %s", reason);
		return POINT_BELOW_FLOOR;
	}
	neighbours(j, k, &prev, &next);
	off = calib_point_off_neighbours(x, prev, next);
	if (!off)
		return POINT_OK;
	if (why && n >= 0 && (size_t)n < len)
		snprintf(why + n, len - (size_t)n, " at %.3f ns: %s (%.3f and %.3f ns)", x, off,
			 prev, next);
	return POINT_OFF;
}

/* Refuses the model for point @k, which still fails after JUDGE_TRIES; says why. */
static void refuse(const struct calib_judge *j, const struct costmodel_limits *lim, size_t k,
		   size_t nbad, double before_ns, double before_ci)
{
	char what[384], limits[192];
	bool agree = calib_point_reproduces(before_ns, before_ci, point_ns(j, k), point_ci_ns(j, k),
					    j->target_ci);

	judge_point(j, lim, k, what, sizeof(what));
	costmodel_limits_describe(lim, limits, sizeof(limits));
	if (isnan(before_ns))
		p_err("%zu point(s) cannot be taken as measured, e.g. %s (after a neighbour was "
		      "measured again). Limits this machine measured: %s. No cost model written: "
		      "run calibrate again",
		      nbad, what, limits);
	else if (!agree)
		p_err("%zu point(s) cannot be taken as measured, e.g. %s, measured %.3f ns the "
		      "time before: the timer disagrees with itself here (two measurements of "
		      "the point further apart than their intervals). Limits this machine "
		      "measured: %s. No cost model written: run calibrate again, or on another "
		      "CPU (--cpu N)",
		      nbad, what, before_ns, limits);
	else
		p_err("%zu point(s) are faster than this machine's own best, e.g. %s, and the same "
		      "when measured again (%.3f ns the time before, %d measurements in all). "
		      "Limits this machine measured: %s. No cost model written: the point beats "
		      "every loop the limits are measured with (docs/calibrate.md#measured-limits)",
		      nbad, what, before_ns, JUDGE_TRIES, limits);
}

int calib_judge_points(const struct calib_judge *j, struct costmodel_limits *lim)
{
	size_t np = j->rs->nr_points, k, nbad, first;
	enum verdict *v = calloc(np, sizeof(*v));
	double *before = malloc(2 * np * sizeof(*before)), *before_ci = before + np;
	bool *want = calloc(np, sizeof(*want)), *kept = calloc(np, sizeof(*kept));
	int again = j->runs < JUDGE_MIN_RUNS ? JUDGE_MIN_RUNS : j->runs;
	char what[384];
	int tries, err = 0;

	if (!v || !before || !want || !kept) {
		err = -ENOMEM;
		goto out;
	}
	for (k = 0; k < np; k++)
		before[k] = NAN;
	for (tries = 0; !err; tries++) {
		err = j->measure_limits(j->ctx, lim);
		if (err)
			break;
		nbad = 0;
		first = np;
		for (k = 0; k < np; k++) {
			v[k] = judge_point(j, lim, k, NULL, 0);
			/* Off its neighbours, and the same as the time before: real. */
			if (v[k] == POINT_OFF && !kept[k] && !isnan(before[k]) &&
			    calib_point_reproduces(before[k], before_ci[k], point_ns(j, k),
						   point_ci_ns(j, k), j->target_ci)) {
				judge_point(j, lim, k, what, sizeof(what));
				p_warn("%s, measured %.3f ns the time before: it reproduces, so it "
				       "is "
				       "kept as measured",
				       what, before[k]);
				kept[k] = true;
			}
			if (v[k] == POINT_OFF && kept[k])
				v[k] = POINT_OK;
			if (v[k] != POINT_OK && !nbad++)
				first = k;
		}
		if (!nbad)
			break;
		if (tries == JUDGE_TRIES - 1) {
			refuse(j, lim, first, nbad, before[first], before_ci[first]);
			err = -ERANGE;
			break;
		}
		judge_point(j, lim, first, what, sizeof(what));
		p_warn("%zu point(s) cannot be taken as measured yet, e.g. %s: measuring them "
		       "again",
		       nbad, what);
		for (k = 0; k < np; k++) {
			want[k] = v[k] != POINT_OK;
			if (!want[k])
				continue;
			before[k] = point_ns(j, k);
			before_ci[k] = point_ci_ns(j, k);
			j->rs->n[k] = 0;
		}
		err = j->measure_again(j->ctx, want, again);
	}
out:
	free(v);
	free(before);
	free(want);
	free(kept);
	return err;
}
