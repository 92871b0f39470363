// SPDX-License-Identifier: GPL-2.0
/* paired_rounds.c: the batches of a paired measurement, each in a process of its own */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "calib/calib_pin.h"
#include "calib/calib_timer.h"
#include "costmodel/mixmeas.h"
#include "lib/log.h"
#include "lib/monotime.h"
#include "paired_child.h"
#include "paired_rounds.h"
#include "paired_settled.h"

/*
 * True when batch @b is to run: the first PAIRED_BATCHES, then more (each on the CPU then the
 * quietest) while the quiet rounds are too few or the A/A control over them is wider than
 * PAIRED_SETTLED_PCT, up to PAIRED_MAX_BUDGETS times the budget.
 */
static bool batch_due(const struct paired_plan *pl, const struct paired_run *run, size_t b,
		      double elapsed, double budget_s, uint64_t seed)
{
	struct mixmeas_figure ctl;

	if (b < PAIRED_BATCHES)
		return true;
	if (b >= PAIRED_MAX_BATCHES || elapsed >= PAIRED_MAX_BUDGETS * budget_s)
		return false;
	if (!paired_run_enough_quiet(run))
		return true;
	if (paired_control_settled(pl, run, seed, &ctl))
		return false;
	p_debug("replay: after %zu batches the A/A control reads %+.2f%% (%+.2f .. %+.2f): "
		"one more",
		b, ctl.delta_pct, ctl.ci_low, ctl.ci_high);
	return true;
}

/* Batch @b's seed: its own stream of draws, from the run's. */
static uint64_t batch_seed(uint64_t seed, size_t b)
{
	return seed ^ (0x9e3779b97f4a7c15ULL * (b + 1));
}

static int rounds(const struct paired_plan *pl, const struct replay_mix *mx,
		  const struct paired_memory *mem, double budget_s, const cpu_set_t *cpus,
		  uint64_t seed, struct paired_run *run)
{
	struct paired_batch bt = { .pl = pl,
				   .mx = mx,
				   .mem = *mem,
				   .chunk = run->chunk,
				   .ref_seed = seed,
				   .cpus = *cpus };
	double start = monotime_s(), share = budget_s / PAIRED_BATCHES;
	bool own_process = true;
	size_t b;
	int err;

	err = calib_timer_init(&bt.timer, 50);
	if (err)
		return err;
	run->tsc_hz = bt.timer.tsc_hz;
	for (b = 0; !err && batch_due(pl, run, b, monotime_s() - start, budget_s, seed); b++) {
		bt.seed = batch_seed(seed, b);
		/*
		 * Its slot ends at its share of the budget, but never less than a share from now:
		 * on a loaded machine the batches before it overran, and a batch whose slot had
		 * passed before it began measured nothing (0 rounds in a run, every batch late).
		 */
		bt.until = fmax(start + share * (double)(b + 1), monotime_s() + share);
		/* Past the budget, for quiet rounds: they are counted in the batch's process. */
		bt.quiet_wanted = b >= PAIRED_BATCHES ? paired_run_quiet_wanted(run) : 0;
		err = own_process ? paired_child_batch(&bt, run) : -ENOEXEC;
		if (err == -ENOEXEC) {
			if (own_process)
				p_warn("replay: cannot run a batch in a process of its own; all in "
				       "this one, whose code stays in one place");
			own_process = false;
			err = paired_batch_run(&bt, run);
		}
		run->elapsed_s = monotime_s() - start;
	}
	return err;
}

/* The CPU most rounds ran on. */
static int busiest_cpu(const struct paired_run *run)
{
	size_t rounds[PAIRED_MAX_BATCHES] = { 0 }, r, b, most = 0;
	int cpu = run->nr_batches ? run->batch_cpu[0] : -1;

	for (r = 0; r < run->rounds; r++)
		rounds[run->batch[r]]++;
	for (b = 0; b < run->nr_batches; b++) {
		size_t n = 0, c;

		for (c = 0; c < run->nr_batches; c++)
			n += run->batch_cpu[c] == run->batch_cpu[b] ? rounds[c] : 0;
		if (n > most) {
			most = n;
			cpu = run->batch_cpu[b];
		}
	}
	return cpu;
}

int paired_rounds_run(const struct paired_plan *pl, const struct replay_mix *mx,
		      const struct paired_memory *mem, size_t chunk, double budget_s, uint64_t seed,
		      int cpu, struct paired_run *run)
{
	cpu_set_t old;
	int err = 0;

	memset(run, 0, sizeof(*run));
	run->nr_paths = pl->nr_paths;
	run->chunk = chunk;
	run->warmup = PAIRED_WARMUP;
	if (sched_getaffinity(0, sizeof(old), &old))
		err = -errno;
	if (!err && cpu >= 0)
		err = calib_pin_cpu(cpu); /* a CPU it may not use: refused, said why */
	if (!err) {
		cpu_set_t cpus = old;

		if (cpu >= 0) {
			CPU_ZERO(&cpus);
			CPU_SET(cpu, &cpus);
		}
		err = rounds(pl, mx, mem, budget_s, &cpus, seed, run);
		sched_setaffinity(0, sizeof(old), &old);
		run->cpu = busiest_cpu(run);
	}
	paired_path_reset();
	return err;
}
