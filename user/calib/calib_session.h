/* SPDX-License-Identifier: GPL-2.0 */
/* calib_session.h: one calibration: pin, check every implementation, time runs, build the model */
#ifndef CP_CALIB_SESSION_H
#define CP_CALIB_SESSION_H

#include <stdbool.h>
#include "asmref.h"
#include "calib_sizes.h"
#include "costmodel.h"

struct calib_plan {
	const struct asmref_impl **impls;
	size_t nr_impls;
	bool caches[COSTMODEL_NR_CACHES];
	bool cache_given; /* --cache was given: say so when one does not apply */
	struct calib_sizes sizes;
	uint32_t align_dst, align_src;
	int cpu; /* -1: the CPU the command started on */
	int runs;
	bool quick;	    /* fewer samples per measurement, shorter TSC calibration */
	uint64_t threshold; /* erms_threshold's T */
	char *command;	    /* recorded in the model's meta */
};

/*
 * Measures every (implementation, cache state) of @plan at every size, @plan->runs times, and
 * returns the model with, per point, the median of the per-run medians and their spread.
 * Returns 0; -EINTR if SIGINT/SIGTERM/SIGHUP stopped it (nothing returned); -EIO if an
 * implementation produced wrong bytes; another -errno for a runtime failure. Prints why.
 */
int calib_session_run(const struct calib_plan *plan, struct costmodel **out);

#endif
