// SPDX-License-Identifier: GPL-2.0
/* calib_check.c: the checks every measured point of calibrate must pass, against measured limits */
#include <math.h>
#include <stddef.h>
#include "calib_check.h"

const char *calib_point_off_neighbours(double ns, double prev_ns, double next_ns)
{
	double lo, hi;

	if (isnan(ns) || isnan(prev_ns) || isnan(next_ns))
		return NULL;
	lo = fmin(prev_ns, next_ns);
	hi = fmax(prev_ns, next_ns);
	if (ns * CALIB_NEIGHBOUR_FACTOR < lo)
		return "far below both neighbours";
	if (ns > hi * CALIB_NEIGHBOUR_FACTOR)
		return "far above both neighbours";
	return NULL;
}

bool calib_point_reproduces(double a_ns, double a_ci, double b_ns, double b_ci, double min_rel)
{
	/* An interval not known (one run) says nothing of the noise: only @min_rel is left. */
	double a = fmax(isfinite(a_ci) ? a_ci : 0, min_rel * a_ns);
	double b = fmax(isfinite(b_ci) ? b_ci : 0, min_rel * b_ns);

	if (!(a_ns > 0) || !(b_ns > 0))
		return false;
	return fabs(a_ns - b_ns) <= a + b;
}
