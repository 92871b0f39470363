/* SPDX-License-Identifier: GPL-2.0 */
/* calib_check.h: the checks every measured point of calibrate must pass, against measured limits */
#ifndef CP_CALIB_CHECK_H
#define CP_CALIB_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "costmodel/costmodel_limits.h"
#include "costmodel/protocol.h"

/* CALIB_NEIGHBOUR_FACTOR: costmodel/protocol.h, with the retry rule that uses it. */

/* A point below this machine's measured floor is refused: costmodel_limits_check(). */

/*
 * "far below both neighbours" or "far above both neighbours" when @ns is CALIB_NEIGHBOUR_FACTOR
 * times off both neighbours on its curve (@prev_ns and @next_ns, the medians of the sizes
 * either side; NAN at either end of the curve), else NULL.
 */
const char *calib_point_off_neighbours(double ns, double prev_ns, double next_ns);

/*
 * Whether a point measured again agrees with its earlier measurement: the two medians (@a_ns,
 * @b_ns) are no further apart than the sum of their 95% intervals' half-widths (@a_ci, @b_ci),
 * each taken as at least @min_rel of its median (the precision calibrate aims at: two
 * intervals narrower than that do not make a drift of a percent a disagreement). An interval
 * that is not finite (a single run has none) counts as unknown: @min_rel alone.
 */
bool calib_point_reproduces(double a_ns, double a_ci, double b_ns, double b_ci, double min_rel);

#endif
