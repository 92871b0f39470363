/* SPDX-License-Identifier: GPL-2.0 */
/* paired_batch.h: one batch of a paired measurement: rounds on one CPU, in memory of its own */
#ifndef CP_PAIRED_BATCH_H
#define CP_PAIRED_BATCH_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "calib_timer.h"
#include "costmodel/protocol.h"
#include "paired_plan.h"
#include "paired_run.h"
#include "replay_mix.h"

/* The memory each batch maps: warm working sets and, where calls want them, cold regions. */
struct paired_memory {
	size_t ws_bytes, cold_bytes;
	uint64_t max_len;
	bool cold_dst, cold_src;
};

/* What one batch is to do. */
struct paired_batch {
	const struct paired_plan *pl;
	const struct replay_mix *mx;
	struct paired_memory mem;
	size_t chunk;		   /* calls per round */
	uint64_t seed;		   /* the batch's own draws */
	uint64_t ref_seed;	   /* the reference chunk's: the same calls in every batch */
	double slot_s;		   /* seconds of rounds, from its first round, ... */
	unsigned int quiet_wanted; /* ... or, sooner, once it has this many quiet rounds (0: no) */
	cpu_set_t cpus;		   /* the CPUs it may run on */
	struct calib_timer timer;
};

/*
 * Batch @b in this process: pinned to the quietest CPU of @b->cpus (paired_cpu_quietest(); the
 * caller restores its affinity), in memory @b->mem mapped afresh, rounds of @b->chunk calls
 * drawn from @b->mx, each path timed on them in a fresh order after a warm-up; each round's
 * reference (a fixed warm chunk drawn from @b->ref_seed, in a region of its own) first.
 * Appended to @run (its nr_paths, chunk and warmup set) as batch @run->nr_batches, its code's
 * place 0. Returns 0, -EINTR, or -errno after printing why.
 */
int paired_batch_run(const struct paired_batch *b, struct paired_run *run);

#endif
