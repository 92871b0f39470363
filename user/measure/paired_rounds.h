/* SPDX-License-Identifier: GPL-2.0 */
/* paired_rounds.h: the batches of a paired measurement, each in a process of its own */
#ifndef CP_PAIRED_ROUNDS_H
#define CP_PAIRED_ROUNDS_H

#include <stddef.h>
#include <stdint.h>
#include "paired_batch.h"
#include "paired_plan.h"
#include "paired_run.h"
#include "replay_mix.h"

/*
 * Pinned to @cpu (-1: before each batch, the quietest CPU the caller may run on, as
 * paired_cpu_quietest() finds it), rounds of @chunk calls drawn from @mx with @seed, each
 * path of @pl timed on them in a fresh order, in PAIRED_BATCHES batches, each in memory @mem
 * mapped afresh and in a process of its own (paired_child_batch(); all in this one where that
 * cannot start, said once), for @budget_s seconds; then more batches of the same length, up
 * to PAIRED_MAX_BUDGETS times the budget in all, until PAIRED_MIN_QUIET rounds found the core
 * quiet (the reference, a fixed chunk in a warm region of its own, within the tightest window
 * of MIXMEAS_QUIET_LADDER of its batch's fastest: paired_run_bases()) and the A/A control over them is settled
 * (paired_control_settled()).
 * Returns 0, -EINTR, or -errno after printing why; paired_run_free() either way.
 */
int paired_rounds_run(const struct paired_plan *pl, const struct replay_mix *mx,
		      const struct paired_memory *mem, size_t chunk, double budget_s, uint64_t seed,
		      int cpu, struct paired_run *run);

#endif
