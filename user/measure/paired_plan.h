/* SPDX-License-Identifier: GPL-2.0 */
/* paired_plan.h: which code each policy row runs on a mix, rows that run the same code shared */
#ifndef CP_PAIRED_PLAN_H
#define CP_PAIRED_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "asmref.h"
#include "calib_loop.h"
#include "calib_timer.h"
#include "estimate/estimate_result.h"
#include "replay_mix.h"

/*
 * A code path a paired measurement times: @lo below @t and @hi from @t (one replica: t is
 * UINT64_MAX), switched in C, or a dispatch replica (erms_threshold) with its own T set to
 * @dispatch_t: the real dispatch code, compare and branch included.
 */
struct paired_path {
	const struct asmref_impl *lo, *hi;
	uint64_t t;
	bool dispatch; /* the knob replica @lo with its threshold at @dispatch_t */
	uint64_t dispatch_t;
	uint64_t from; /* ... which sends lengths from this one on to the string op */
	char name[24]; /* the first row's name, or "today (A/A)" for the control */
};

#define PAIRED_MAX_PATHS (EST_MAX_POLICIES + 1)

/*
 * The rows of a family's estimate as code paths on mix @mx. Two rows that run the same code on
 * every call the mix can draw (two thresholds with no length between them, `always` and today
 * when today's code is the string op) share one path, so they get exactly the same figures and
 * none of the noise of timing the same code twice; the oracle runs no code (-1). The last path
 * is the A/A control: today's code once more, timed as if it were another policy.
 */
struct paired_plan {
	struct paired_path paths[PAIRED_MAX_PATHS];
	size_t nr_paths;
	int row_path[EST_MAX_POLICIES]; /* per row of the estimate; -1: not timed (the oracle) */
	size_t nr_rows;
	size_t today, control; /* the path of today's row, and the control's */
	int always, zero;      /* the paths of `always` and `T=0` (dispatch check), or -1 */
};

/* Returns 0, or -ENOENT after printing which replica is missing. */
int paired_plan_make(const struct est_family_result *fr, const struct replay_mix *mx,
		     struct paired_plan *pl);
/* Makes the replicas run @p (a dispatch replica's T). */
void paired_path_use(const struct paired_path *p);
/* TSC ticks of one pass of @p over @calls[0..n), the timer's overhead taken off. */
double paired_path_time(const struct calib_timer *t, const struct paired_path *p,
			const struct calib_call *calls, size_t n);
/* The replicas back to their defaults. */
void paired_path_reset(void);

#endif
