/* SPDX-License-Identifier: GPL-2.0 */
/* replay.h: estimate --validate: time a profile's length sequence through the replicas */
#ifndef CP_REPLAY_H
#define CP_REPLAY_H

#include "estimate.h"

struct replay_opts {
	const struct est_cache *cache;
	int cpu;	  /* CPU to pin to; -1: the one it runs on */
	size_t max_calls; /* length of the replayed sequence (default REPLAY_CALLS) */
	int runs;	  /* interleaved runs per policy; the median is kept (default REPLAY_RUNS) */
	uint64_t seed;	  /* fixed: the same profile replays the same sequence */
};

#define REPLAY_CALLS 20000
#define REPLAY_RUNS 11
#define REPLAY_SEED 0x9e3779b97f4a7c15ULL
/* Lengths above this are left out of the replay (they are said to be). */
#define REPLAY_MAX_SIZE (64ULL << 20)

/*
 * Draws a shuffled sequence of @o->max_calls lengths from @fr's buckets (counts in proportion,
 * lengths spread evenly around each bucket's mean within it), checks the bytes of every
 * implementation used, then times today's policy, "always" and each threshold row of @fr
 * through the asm-ref replicas (memcpy thresholds: erms_threshold with its T set; the other
 * families: the loop below T, the string op from T, chosen in C), interleaved, on one CPU, in
 * @o->cache's states. Fills @fr->measured_pct (NAN for rows not replayed: the oracle).
 * Returns 0, or -errno after printing why.
 */
int replay_family(struct est_family_result *fr, const struct replay_opts *o);

#endif
