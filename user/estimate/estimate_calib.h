/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_calib.h: estimate without -m: a quick calibration of just what the estimate needs */
#ifndef CP_ESTIMATE_CALIB_H
#define CP_ESTIMATE_CALIB_H

#include <stddef.h>
#include "calib/costmodel.h"
#include "estimate_input.h"
#include "estimate_options.h"

/*
 * Measures, as `copyprof calibrate --quick` would, the implementations the families of @ins
 * (or @o->family) need, in the cache states @o->cache weighs, on this CPU. Says so first.
 * Returns 0, or -errno after printing why.
 */
int est_calibrate_quick(const struct est_input *ins, size_t nr, const struct est_options *o,
			struct costmodel **out);

#endif
