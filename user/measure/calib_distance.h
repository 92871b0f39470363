/* SPDX-License-Identifier: GPL-2.0 */
/* calib_distance.h: calibrate --distance: the curves again with the destination 32 B off the source */
#ifndef CP_CALIB_DISTANCE_H
#define CP_CALIB_DISTANCE_H

#include "calib_session.h"

/* The distance from the plan's own the two extra sessions set: 32 ahead, 32 behind. */
#define CALIB_DISTANCE_BYTES 32

/*
 * The distance axis (docs/calibrate.md#pointer-distance): every implementation of @plan but the
 * dispatch replicas, warm, at the plan's sizes, once with the destination CALIB_DISTANCE_BYTES
 * further into its page ((dst - src) mod 4096 = 32) and once with the source so (4064), added
 * to @m as curves whose align says where. 0, or what calib_session_run() returns.
 */
int calib_distance_run(const struct calib_plan *plan, struct costmodel *m);

#endif
