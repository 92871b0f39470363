// SPDX-License-Identifier: GPL-2.0
/* calib_check.c: the physical checks every measured point of calibrate must pass */
#include <math.h>
#include <stddef.h>
#include "calib_check.h"

double calib_floor_ns(uint64_t size)
{
	double f = (double)size / CALIB_MAX_BYTES_PER_NS;

	return f > CALIB_MIN_CALL_NS ? f : CALIB_MIN_CALL_NS;
}

const char *calib_point_impossible(uint64_t size, double ns, double prev_ns, double next_ns)
{
	double lo, hi;

	if (isnan(ns))
		return "not a number";
	if (ns < calib_floor_ns(size))
		return "below the floor";
	if (isnan(prev_ns) || isnan(next_ns))
		return NULL;
	lo = fmin(prev_ns, next_ns);
	hi = fmax(prev_ns, next_ns);
	if (ns * CALIB_NEIGHBOUR_FACTOR < lo)
		return "far below both neighbours";
	if (ns > hi * CALIB_NEIGHBOUR_FACTOR)
		return "far above both neighbours";
	return NULL;
}
