/* SPDX-License-Identifier: GPL-2.0 */
/* paired_run.h: what a paired measurement's rounds measured, and which rounds were quiet */
#ifndef CP_PAIRED_RUN_H
#define CP_PAIRED_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "costmodel/protocol.h"

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
	/* [batch]: where its process had the replay's code (paired_child.h); 0: in this one */
	uintptr_t batch_code[PAIRED_MAX_BATCHES];
};

void paired_run_free(struct paired_run *run);

/* Room for at least one more round in @run. Returns 0 or -ENOMEM. */
int paired_run_grow(struct paired_run *run);

/* The distinct places of the replay's code over @run's batches (batch_code; 0 counts once). */
size_t paired_run_placements(const struct paired_run *run);
/*
 * Each batch's base, which its rounds' references are judged against: its fastest reference,
 * but no more than PAIRED_PLACE_SPREAD above the run's fastest.
 */
void paired_run_bases(const struct paired_run *run, double base[PAIRED_MAX_BATCHES]);

/* True if round @r found the core quiet: its reference within @tol of its batch's @base. */
bool paired_run_quiet(const struct paired_run *run, size_t r, const double *base, double tol);
/*
 * The quiet stratum's tolerance: the tightest of MIXMEAS_QUIET_LADDER that holds
 * PAIRED_MIN_QUIET rounds, else the window that holds the PAIRED_MIN_QUIET rounds of fastest
 * reference (a core contended throughout: the quietest it was), else (fewer rounds) the widest
 * of the ladder (costmodel/mixmeas.h says why).
 */
double paired_run_tolerance(const struct paired_run *run);
/* The fastest reference over the rounds. */
double paired_run_fastest(const struct paired_run *run);

/* The rounds within @tol of the fastest reference. */
size_t paired_run_count_quiet(const struct paired_run *run, double tol);
/* True once PAIRED_MIN_QUIET rounds lie within the ladder's tightest window. */
bool paired_run_enough_quiet(const struct paired_run *run);
/* How many more rounds within the ladder's tightest window make PAIRED_MIN_QUIET (0: enough). */
size_t paired_run_quiet_wanted(const struct paired_run *run);
/* The rounds of batch @b within the ladder's tightest window of its base. */
size_t paired_run_batch_quiet(const struct paired_run *run, size_t b);
/* Marks @quiet[r] for the rounds that found the core quiet (paired_run_tolerance()); their count. */
size_t paired_run_quiet_set(const struct paired_run *run, bool *quiet);

#endif
