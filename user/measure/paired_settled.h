/* SPDX-License-Identifier: GPL-2.0 */
/* paired_settled.h: whether a run's own noise is small enough to stop: its A/A control */
#ifndef CP_PAIRED_SETTLED_H
#define CP_PAIRED_SETTLED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "costmodel/mixmeas.h"
#include "paired_plan.h"
#include "paired_run.h"

/*
 * The A/A control of @pl over @run's quiet rounds so far into @ctl (the figure the verdict
 * will use, drawn from @seed); true when both ends of its interval lie within
 * ±PAIRED_SETTLED_PCT. False when it cannot be had yet (too few quiet rounds, no memory).
 */
bool paired_control_settled(const struct paired_plan *pl, const struct paired_run *run,
			    uint64_t seed, struct mixmeas_figure *ctl);

#endif
