/* SPDX-License-Identifier: GPL-2.0 */
/* calib_quick.h: estimate without -m: a quick calibration of just what the estimate needs */
#ifndef CP_CALIB_QUICK_H
#define CP_CALIB_QUICK_H

#include <stddef.h>
#include "costmodel/costmodel.h"
#include "estimate/estimate_input.h"
#include "estimate/estimate_options.h"

/*
 * Measures, as `copyprof calibrate --quick` would, the implementations the families of @ins
 * (or @o->family) need, in the cache states @o->cache weighs, on this CPU. Says so first.
 * Returns 0, or -errno after printing why.
 */
int calib_quick_for_inputs(const struct est_input *ins, size_t nr, const struct est_options *o,
			   struct costmodel **out);

#endif
