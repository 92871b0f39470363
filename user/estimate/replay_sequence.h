/* SPDX-License-Identifier: GPL-2.0 */
/* replay_sequence.h: the lengths a replay times, drawn from a family's buckets with a fixed seed */
#ifndef CP_REPLAY_SEQUENCE_H
#define CP_REPLAY_SEQUENCE_H

#include <stddef.h>
#include <stdint.h>
#include "estimate_options.h"
#include "estimate_result.h"

struct replay_opts {
	const struct est_cache *cache;
	int cpu;	  /* CPU to pin to; -1: the one it runs on */
	size_t max_calls; /* length of the replayed sequence (default REPLAY_CALLS) */
	int runs;      /* interleaved runs per policy; the median is kept (default REPLAY_RUNS) */
	uint64_t seed; /* fixed: the same profile replays the same sequence */
};

#define REPLAY_CALLS 20000
#define REPLAY_RUNS 11
#define REPLAY_SEED 0x9e3779b97f4a7c15ULL
/* Lengths above this are left out of the replay (they are said to be). */
#define REPLAY_MAX_SIZE (64ULL << 20)

/* One call of the sequence: its length and cache state (calib_loop() strides over the n). */
struct replay_call {
	uint64_t n;
	uint64_t cache;
};

/*
 * Draws @o->max_calls lengths from @fr's buckets that start in [@from, @below) and lie within
 * REPLAY_MAX_SIZE (*@left_out: buckets with calls beyond it), calls in proportion, each in a
 * cache state drawn from @o->cache, shuffled with @o->seed; [0, UINT64_MAX): all of them, the
 * mix correction's samples: a range of the short ones. A bucket's lengths are exact below 64;
 * above, uniform over [mean - w, mean + w] with w as wide as the bucket allows, so that the
 * bucket's mean is kept. *@out (malloc'd), *@max_n the longest; returns the calls (0: none,
 * or out of memory).
 */
size_t replay_draw_sequence(const struct est_family_result *fr, const struct replay_opts *o,
			    uint64_t from, uint64_t below, struct replay_call **out,
			    uint64_t *max_n, size_t *left_out);
/* 0 .. @n - 1 in an order drawn from @seed. */
void replay_shuffled_order(size_t *order, size_t n, uint64_t *seed);

#endif
