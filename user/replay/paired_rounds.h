/* SPDX-License-Identifier: GPL-2.0 */
/* paired_rounds.h: the timed rounds of a paired measurement: every path on the same calls */
#ifndef CP_PAIRED_ROUNDS_H
#define CP_PAIRED_ROUNDS_H

#include <stddef.h>
#include <stdint.h>
#include "paired_plan.h"
#include "replay_mix.h"
#include "replay_regions.h"

#define PAIRED_WARMUP 1024   /* untimed calls of the previous round before each timed pass */
#define PAIRED_MIN_QUIET 100 /* quiet rounds wanted: the run goes on for them ... */
#define PAIRED_MAX_BUDGETS 4 /* ... up to this many times its budget */
/*
 * Batches of rounds, each in memory mapped afresh (other pages, other cache sets and colours):
 * the interval is then bootstrapped over batches and rounds within them, so that it covers the
 * state of the memory a run happens to get, not only the noise from round to round.
 */
#define PAIRED_BATCHES 4
/* ... and more of the same length while quiet rounds are too few (PAIRED_MAX_BUDGETS). */
#define PAIRED_MAX_BATCHES (PAIRED_BATCHES * PAIRED_MAX_BUDGETS)

/* The memory each batch maps: warm working sets and, where calls want them, cold regions. */
struct paired_memory {
	size_t ws_bytes, cold_bytes;
	uint64_t max_len;
	bool cold_dst, cold_src;
};

/* What the rounds measured: TSC ticks per timed pass, and the reference's per round. */
struct paired_run {
	size_t nr_paths, chunk, warmup;
	size_t rounds, cap;
	double *ticks;	/* [round * nr_paths + path] */
	double *ref;	/* [round]: the fixed reference chunk under today's code */
	uint8_t *batch; /* [round]: its batch */
	size_t nr_batches;
	int batch_cpu[PAIRED_MAX_BATCHES]; /* [batch]: the CPU it ran on */
	size_t ws_bytes, cold_bytes;	   /* as mapped (cold 0: none) */
	double tsc_hz;
	double elapsed_s;
	int cpu; /* the CPU most rounds ran on */
};

/*
 * Pinned to @cpu (-1: before each batch, the quietest CPU the caller may run on, as
 * paired_cpu_quietest() finds it), rounds of @chunk calls drawn from @mx with @seed, each
 * path of @pl timed on them in a fresh order, in PAIRED_BATCHES batches each in memory @mem
 * mapped afresh, for @budget_s seconds; then more batches of the same length, up to
 * PAIRED_MAX_BUDGETS times the budget in all, until PAIRED_MIN_QUIET rounds found the core
 * quiet (the reference, a fixed chunk in @ref_rg, within the tightest window of
 * MIXMEAS_QUIET_LADDER of its fastest).
 * Returns 0, -EINTR, or -errno after printing why; paired_run_free() either way.
 */
int paired_rounds_run(const struct paired_plan *pl, const struct replay_mix *mx,
		      const struct replay_regions *ref_rg, const struct paired_memory *mem,
		      size_t chunk, double budget_s, uint64_t seed, int cpu,
		      struct paired_run *run);
void paired_run_free(struct paired_run *run);
/* True if round @r found the core quiet: its reference within @tol of the fastest. */
bool paired_run_quiet(const struct paired_run *run, size_t r, double fastest, double tol);
/*
 * The quiet stratum's tolerance: the tightest of MIXMEAS_QUIET_LADDER that holds
 * PAIRED_MIN_QUIET rounds, else the window that holds the PAIRED_MIN_QUIET rounds of fastest
 * reference (a core contended throughout: the quietest it was), else (fewer rounds) the widest
 * of the ladder (costmodel/mixmeas.h says why).
 */
double paired_run_tolerance(const struct paired_run *run);
/* The fastest reference over the rounds. */
double paired_run_fastest(const struct paired_run *run);

#endif
