// SPDX-License-Identifier: GPL-2.0
/* calib_judge.c: every point judged against this machine's measured limits and its neighbours */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "calib_check.h"
#include "calib_judge.h"
#include "lib/log.h"
#include "measure_retry.h"

/* How many times, and with how many runs: MEASURE_RETRY_CURVE_* (costmodel/protocol.h). */

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

/* The refusal of the model for point @k, which still fails at the last judging, into @why. */
static void refusal(const struct calib_judge *j, const struct costmodel_limits *lim, size_t k,
		    size_t nbad, double before_ns, double before_ci, char *why, size_t len)
{
	char what[384], limits[192];
	bool agree = calib_point_reproduces(before_ns, before_ci, point_ns(j, k), point_ci_ns(j, k),
					    j->target_ci);

	judge_point(j, lim, k, what, sizeof(what));
	costmodel_limits_describe(lim, limits, sizeof(limits));
	if (isnan(before_ns))
		snprintf(
			why, len,
			"%zu point(s) cannot be taken as measured, e.g. %s (after a neighbour was "
			"measured again). Limits this machine measured: %s. No cost model written: "
			"run calibrate again",
			nbad, what, limits);
	else if (!agree)
		snprintf(why, len,
			 "%zu point(s) cannot be taken as measured, e.g. %s, measured %.3f ns the "
			 "time before: the timer disagrees with itself here (two measurements of "
			 "the point further apart than their intervals). Limits this machine "
			 "measured: %s. No cost model written: run calibrate again, or on another "
			 "CPU (--cpu N)",
			 nbad, what, before_ns, limits);
	else
		snprintf(why, len,
			 "%zu point(s) are faster than this machine's own best, e.g. %s, and the "
			 "same when measured again (%.3f ns the time before, %d measurements in "
			 "all). Limits this machine measured: %s. No cost model written: the point "
			 "beats every loop the limits are measured with "
			 "(docs/calibrate.md#measured-limits)",
			 nbad, what, before_ns, MEASURE_RETRY_CURVE_TRIES, limits);
}

/* The judging's state between measurements. */
struct judging {
	const struct calib_judge *j;
	struct costmodel_limits *lim;
	enum verdict *v;   /* the last judging's verdict per point */
	double *before;	   /* a point's median the time before it was measured again (NAN: not) */
	double *before_ci; /* ... and its interval */
	bool *want;	   /* the points measured again */
	bool *kept;	   /* off its neighbours, reproduced: taken as measured */
};

/* Measurement @attempt: the failing points again from scratch (from the second), the limits. */
static int measure(void *ctx, int attempt)
{
	struct judging *g = ctx;
	const struct calib_judge *j = g->j;
	size_t k;
	int err, runs = j->runs < MEASURE_RETRY_CURVE_MIN_RUNS ? MEASURE_RETRY_CURVE_MIN_RUNS
							       : j->runs;

	if (attempt > 0) {
		for (k = 0; k < j->rs->nr_points; k++) {
			g->want[k] = g->v[k] != POINT_OK;
			if (!g->want[k])
				continue;
			g->before[k] = point_ns(j, k);
			g->before_ci[k] = point_ci_ns(j, k);
			j->rs->n[k] = 0;
		}
		err = j->measure_again(j->ctx, g->want, runs);
		if (err)
			return err;
	}
	return j->measure_limits(j->ctx, g->lim);
}

/* Every point against the limits and its neighbours; -EDOM with the first failing one. */
static int judge(void *ctx, int attempt, bool last, char *why, size_t len)
{
	struct judging *g = ctx;
	const struct calib_judge *j = g->j;
	size_t np = j->rs->nr_points, k, nbad = 0, first = np;
	char what[384];

	(void)attempt;
	for (k = 0; k < np; k++) {
		g->v[k] = judge_point(j, g->lim, k, NULL, 0);
		/* Off its neighbours, and the same as the time before: real. */
		if (g->v[k] == POINT_OFF && !g->kept[k] && !isnan(g->before[k]) &&
		    calib_point_reproduces(g->before[k], g->before_ci[k], point_ns(j, k),
					   point_ci_ns(j, k), j->target_ci)) {
			judge_point(j, g->lim, k, what, sizeof(what));
			p_warn("%s, measured %.3f ns the time before: it reproduces, so it is kept "
			       "as measured",
			       what, g->before[k]);
			g->kept[k] = true;
		}
		if (g->v[k] == POINT_OFF && g->kept[k])
			g->v[k] = POINT_OK;
		if (g->v[k] != POINT_OK && !nbad++)
			first = k;
	}
	if (!nbad)
		return 0;
	if (last) {
		refusal(j, g->lim, first, nbad, g->before[first], g->before_ci[first], why, len);
	} else {
		judge_point(j, g->lim, first, what, sizeof(what));
		snprintf(why, len, "%zu point(s) cannot be taken as measured yet, e.g. %s", nbad,
			 what);
	}
	return -EDOM;
}

int calib_judge_points(const struct calib_judge *j, struct costmodel_limits *lim)
{
	size_t np = j->rs->nr_points, k;
	double *before = malloc(2 * np * sizeof(*before));
	struct judging g = {
		.j = j,
		.lim = lim,
		.v = calloc(np, sizeof(*g.v)),
		.before = before,
		.before_ci = before ? before + np : NULL,
		.want = calloc(np, sizeof(bool)),
		.kept = calloc(np, sizeof(bool)),
	};
	struct measure_retry rule = {
		.what = "calibrate",
		.tries = MEASURE_RETRY_CURVE_TRIES,
		.refuse = true,
		.measure = measure,
		.judge = judge,
		.ctx = &g,
	};
	int err = -ENOMEM;

	if (g.v && before && g.want && g.kept) {
		for (k = 0; k < np; k++)
			before[k] = NAN;
		err = measure_retry_run(&rule);
		if (err == -EDOM)
			err = -ERANGE;
	}
	free(g.v);
	free(before);
	free(g.want);
	free(g.kept);
	return err;
}
