/* SPDX-License-Identifier: GPL-2.0 */
/* calib_check.h: the physical checks every measured point of calibrate must pass */
#ifndef CP_CALIB_CHECK_H
#define CP_CALIB_CHECK_H

#include <stdint.h>

/* No CPU copies faster than this (bytes per ns) ... */
#define CALIB_MAX_BYTES_PER_NS 256.0
/* ... nor makes a call in less than this (ns) */
#define CALIB_MIN_CALL_NS 0.2
/* A point this many times off both of its neighbours (in the same direction) is impossible. */
#define CALIB_NEIGHBOUR_FACTOR 3.0

/* The fastest a copy of @size bytes can be: CALIB_MAX_BYTES_PER_NS, CALIB_MIN_CALL_NS a call. */
double calib_floor_ns(uint64_t size);
/*
 * Why a copy of @size bytes measured at @ns cannot be, or NULL if it can: below the floor, or
 * CALIB_NEIGHBOUR_FACTOR times below or above both neighbours on its curve (@prev_ns and
 * @next_ns, the medians of the sizes either side; NAN at either end of the curve). A NaN
 * @ns is impossible too.
 */
const char *calib_point_impossible(uint64_t size, double ns, double prev_ns, double next_ns);

#endif
