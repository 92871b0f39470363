// SPDX-License-Identifier: GPL-2.0
/* paired_cpu.c: where a batch of rounds runs: the quietest of the CPUs it may run on */
#include <errno.h>
#include <math.h>
#include "lib/median.h"
#include "calib_pin.h"
#include "lib/log.h"
#include "paired_cpu.h"
#include "paired_stats.h"

/* Up to PAIRED_CPU_CANDIDATES CPUs of @allowed: the current one, then those after it, round. */
static size_t candidates(const cpu_set_t *allowed, int *cpu)
{
	int here = sched_getcpu(), i;
	size_t n = 0;

	if (here < 0 || !CPU_ISSET(here, allowed))
		here = 0;
	for (i = 0; i < CPU_SETSIZE && n < PAIRED_CPU_CANDIDATES; i++) {
		int c = (here + i) % CPU_SETSIZE;

		if (CPU_ISSET(c, allowed))
			cpu[n++] = c;
	}
	return n;
}

int paired_cpu_quietest(const cpu_set_t *allowed, const struct calib_timer *t,
			const struct paired_path *today, const struct calib_call *calls, size_t n)
{
	double ticks[PAIRED_CPU_CANDIDATES][PAIRED_CPU_TURNS * PAIRED_CPU_PASSES], best = INFINITY;
	int cpu[PAIRED_CPU_CANDIDATES], quietest;
	size_t nr = candidates(allowed, cpu), c, turn, k;
	int err;

	if (!nr) {
		p_err("replay: no CPU to run on");
		return -EINVAL;
	}
	quietest = cpu[0];
	paired_path_use(today);
	for (turn = 0; nr > 1 && turn < PAIRED_CPU_TURNS; turn++)
		for (c = 0; c < nr; c++) {
			err = calib_pin_cpu(cpu[c]);
			if (err)
				return err;
			calib_loop_calls(today->lo, today->hi, today->t, calls, n); /* warm */
			for (k = 0; k < PAIRED_CPU_PASSES; k++)
				ticks[c][turn * PAIRED_CPU_PASSES + k] =
					paired_path_time(t, today, calls, n);
		}
	for (c = 0; nr > 1 && c < nr; c++) {
		double m = median_select(ticks[c], PAIRED_CPU_TURNS * PAIRED_CPU_PASSES);

		p_debug("replay: CPU %d: reference %.0f ticks (median of %d)", cpu[c], m,
			PAIRED_CPU_TURNS * PAIRED_CPU_PASSES);
		if (m < best) {
			best = m;
			quietest = cpu[c];
		}
	}
	err = calib_pin_cpu(quietest);
	return err ? err : quietest;
}
