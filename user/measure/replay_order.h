/* SPDX-License-Identifier: GPL-2.0 */
/* replay_order.h: call sequences made in the manner of a mix's recorded runs of lengths */
#ifndef CP_REPLAY_ORDER_H
#define CP_REPLAY_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "replay_mix.h"

/*
 * The longest context a next length is drawn on, and the fewest recorded places a context must
 * have been seen at to be used (docs/estimate.md#call-order). A cycle continues as recorded;
 * lengths in no order are drawn as freshly as the runs allow, never replayed as one sequence
 * that a branch predictor could learn.
 */
#define REPLAY_ORDER_MAX_CONTEXT 8
#define REPLAY_ORDER_MIN_SEEN 8
#define REPLAY_ORDER_MAX_CANDS 64

/*
 * The runs' places (run, position) numbered 0..nr-1, and for each the places that may come
 * next: those that followed the longest context (up to REPLAY_ORDER_MAX_CONTEXT lengths ending
 * at it) that the runs show at REPLAY_ORDER_MIN_SEEN places or more, at most
 * REPLAY_ORDER_MAX_CANDS of them; none: every place may.
 */
struct replay_order {
	size_t nr;	   /* places */
	uint64_t *len;	   /* each place's length */
	uint32_t *starts;  /* the places that begin a run */
	double *start_cdf; /* cumulative: a block begins as run i does in proportion to it */
	size_t nr_starts;
	uint32_t *cand; /* nr x REPLAY_ORDER_MAX_CANDS */
	uint32_t *nr_cand;
};

/* From @mx's runs (none: an empty order). 0 or -ENOMEM; replay_order_free() either way. */
int replay_order_build(struct replay_order *o, const struct replay_mix *mx);
/*
 * Whether @mx's runs say anything about order: at least half their places continue a context
 * seen at REPLAY_ORDER_MIN_SEEN places or more. Runs of many distinct lengths in no order (600
 * to 6,000 B drawn at random: 3 runs of 64 calls, no context seen twice) do not; replaying
 * them would draw from those 192 calls alone instead of the histogram (t0039 read T=257 at
 * +3.95% against glibc's knob's +10.51%), so they are replayed as independent draws.
 */
bool replay_order_informative(const struct replay_mix *mx);
void replay_order_free(struct replay_order *o);
/*
 * @n lengths into @out: from the start of a run, each next one drawn as above. A run is begun
 * with a chance in proportion to the mix's share of calls in its first length's bucket over the
 * runs' share of starts there, so that a program in phases (a run that only ever copies 1 KiB,
 * three that copy 4 KiB) is replayed in its histogram's proportions, not its sample's.
 */
void replay_order_block(const struct replay_order *o, uint64_t *seed, uint64_t *out, size_t n);

#endif
