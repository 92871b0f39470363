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
 * The A/A control's interval a run goes on for (up to PAIRED_MAX_BUDGETS times its budget):
 * both ends within this many points of 0. Quiet runs on this project's machines end well
 * inside it (±0.03 .. ±0.3 points, 80 runs of bench/estimate_repeat.sh); a run on a
 * contended core had -1.77 .. +0.61, and its T=0 (+0.87%, today's code behind one compare,
 * +1.16% in 4 quiet runs) read "no difference" where the others read "keep today's code".
 */
#define PAIRED_SETTLED_PCT 0.5

/*
 * The A/A control of @pl over @run's quiet rounds so far into @ctl (the figure the verdict
 * will use, drawn from @seed); true when both ends of its interval lie within
 * ±PAIRED_SETTLED_PCT. False when it cannot be had yet (too few quiet rounds, no memory).
 */
bool paired_control_settled(const struct paired_plan *pl, const struct paired_run *run,
			    uint64_t seed, struct mixmeas_figure *ctl);

#endif
