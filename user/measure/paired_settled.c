// SPDX-License-Identifier: GPL-2.0
/* paired_settled.c: whether a run's own noise is small enough to stop: its A/A control */
#include <math.h>
#include <stdlib.h>
#include "paired_figure.h"
#include "paired_settled.h"

bool paired_control_settled(const struct paired_plan *pl, const struct paired_run *run,
			    uint64_t seed, struct mixmeas_figure *ctl)
{
	bool *quiet = calloc(run->rounds + 1, sizeof(*quiet)), ok;

	ctl->delta_pct = ctl->ci_low = ctl->ci_high = NAN;
	if (!quiet)
		return false;
	paired_run_quiet_set(run, quiet);
	ok = !paired_figure(run, quiet, pl->control, pl->today, seed, ctl) &&
	     fabs(ctl->ci_low) <= PAIRED_SETTLED_PCT && fabs(ctl->ci_high) <= PAIRED_SETTLED_PCT;
	free(quiet);
	return ok;
}
