/* SPDX-License-Identifier: GPL-2.0 */
/* calib_ceiling.h: this machine's best store and copy rates and its cheapest call, measured */
#ifndef CP_CALIB_CEILING_H
#define CP_CALIB_CEILING_H

#include "calib_timer.h"
#include "costmodel/costmodel_limits.h"

/*
 * Measures, through the harness the points are timed with (calib_measure(), warm, batches of
 * about @batch_ticks), the best rate of every store-only and every copy loop this CPU can run
 * (asmref_ceiling.h: AVX-512, AVX2, SSE2, REP STOSB / REP MOVSB) on L1-resident buffers of 4
 * and 8 KiB, and the cost of an empty call; each the best of CALIB_CEILING_RUNS short runs.
 * Keeps in @lim the best seen so far (called again, it only raises a rate or lowers the call
 * cost), the loop that reached each rate, and COSTMODEL_LIMITS_MARGIN. Returns 0, -EINTR if a
 * stop was asked for, or -errno (printed).
 */
int calib_ceiling_measure(const struct calib_timer *t, double batch_ticks,
			  struct costmodel_limits *lim);

/* Short runs of each loop and of the empty call; the fastest is kept. */
#define CALIB_CEILING_RUNS 7

#endif
