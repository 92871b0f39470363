/* SPDX-License-Identifier: GPL-2.0 */
/* calib_judge.h: every point judged against this machine's measured limits and its neighbours */
#ifndef CP_CALIB_JUDGE_H
#define CP_CALIB_JUDGE_H

#include <stdbool.h>
#include <stdint.h>
#include "calib_runs.h"
#include "calib_timer.h"
#include "costmodel/costmodel_limits.h"
#include "costmodel/costmodel.h"

/* One curve, as the judging names it and holds it to a limit. */
struct calib_judge_curve {
	const char *name; /* "memcpy_orig" */
	enum costmodel_cache cache;
	bool copies; /* held to the copy limit; else to the store limit */
};

struct calib_judge {
	struct calib_runs *rs;			/* every point's runs (nr_sizes a curve) */
	const uint64_t *sizes;			/* [rs->nr_sizes] */
	const struct calib_judge_curve *curves; /* [rs->nr_points / rs->nr_sizes] */
	int runs;				/* --runs: a point measured again gets as many */
	double target_ci;	     /* CALIB_TARGET_CI: calib_point_reproduces()'s least room */
	const struct calib_timer *t; /* its tsc_hz turns ticks into ns */
	/*
	 * Measures this machine's limits into @lim, keeping the best seen (the session:
	 * calib_ceiling_measure()); 0 or -errno.
	 */
	int (*measure_limits)(void *ctx, struct costmodel_limits *lim);
	/* Measures the points in @want (their runs cleared) @runs times more; 0 or -errno. */
	int (*measure_again)(void *ctx, const bool *want, int runs);
	void *ctx;
};

/*
 * Measures this machine's limits into @lim (@j->measure_limits, again before every judging)
 * and judges every point of @j against them and its neighbours
 * (docs/calibrate.md#measured-limits). A point off both neighbours (calib_check.h) whose
 * measurement again agrees with the one before (calib_point_reproduces()) is real: kept, with
 * a warning that names it. A point below the floor, or off its neighbours and not reproduced,
 * is measured again by the measurement layer's one rule (measure_retry.h), up to
 * MEASURE_RETRY_CURVE_TRIES judgings in all; then the model is refused with a message that
 * names the point and the limits, and blames the timer only when two measurements of the point
 * disagree. Returns 0, -ERANGE (refused, printed), -EINTR, or -errno.
 */
int calib_judge_points(const struct calib_judge *j, struct costmodel_limits *lim);

#endif
