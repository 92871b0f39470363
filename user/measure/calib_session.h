/* SPDX-License-Identifier: GPL-2.0 */
/* calib_session.h: one calibration: pin, check every implementation, time runs, build the model */
#ifndef CP_CALIB_SESSION_H
#define CP_CALIB_SESSION_H

#include <stdbool.h>
#include "asmref.h"
#include "calib_sizes.h"
#include "costmodel/costmodel.h"

struct calib_plan {
	const struct asmref_impl **impls;
	size_t nr_impls;
	bool caches[COSTMODEL_NR_CACHES];
	bool cache_given; /* --cache was given: say so when one does not apply */
	struct calib_sizes sizes;
	uint32_t align_dst, align_src;
	int cpu;	    /* -1: the CPU the command started on */
	int runs;	    /* runs every point gets */
	int max_runs;	    /* adaptive: at most this many (0: 5 x runs) */
	double budget_s;    /* adaptive: stop adding runs after this long (0: 20 s quick, 150 s) */
	bool quick;	    /* fewer samples per measurement, shorter TSC calibration */
	uint64_t threshold; /* erms_threshold's T */
	char *command;	    /* recorded in the model's meta */
};

/* A point is precise enough when its 95% interval's half-width is at most this of its value. */
#define CALIB_TARGET_CI 0.02

/*
 * Measures every (implementation, cache state) of @plan at every size, @plan->runs times, then
 * adds runs to the points whose 95% interval (of the median over runs) is wider than
 * CALIB_TARGET_CI, until all are within it, @plan->max_runs is reached or @plan->budget_s has
 * passed (then says which points are noisy, what was seen and what to do). Measures this
 * machine's limits in the same session (calib_ceiling.h) into the model's limits, and judges
 * every point against them and its neighbours (calib_judge_points()): refuses (-ERANGE) a model
 * with a point below the floor, or off its neighbours and not reproduced, after measuring it
 * again. Returns the model with, per point, the median over runs, its interval and the spread. Returns 0; -EINTR if SIGINT/SIGTERM/SIGHUP stopped it (nothing
 * returned); -EIO if an implementation produced wrong bytes; another -errno for a runtime
 * failure. Prints why.
 */
int calib_session_run(const struct calib_plan *plan, struct costmodel **out);

#endif
