/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_neighbour.h: the neighbour correction: every policy on the whole mix, two orders */
#ifndef CP_ESTIMATE_NEIGHBOUR_H
#define CP_ESTIMATE_NEIGHBOUR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The neighbour correction (docs/estimate.md#the-neighbour-correction). The mix correction
 * replays short lengths among themselves; what a call's neighbours of every length do to it is
 * left: a long REP MOVSB's stores drain under the short calls after it (it costs less in the mix
 * than timed back to back, as calibrate times it), a threshold's branch mispredicts between the
 * short and the long calls, a loop's tail branches mispredict on lengths spread within a bucket.
 * So every policy row is replayed on the whole mix (the sequence --validate replays), shuffled
 * and sorted by length, interleaved in one run; rows that run the same code on every call share
 * their group's mean. The order penalty, shuffled - sorted per call, is taken back to the cost
 * model's units by the replay's speed (today's sorted cost over today's pure one: a machine
 * slower or faster than at calibration scales both orders) and added: mispredictions add time.
 * The row's total becomes pure + penalty / speed per call; residual_ns is what that adds beyond
 * the mix correction (the row's mixed total minus its pure one), added to the row's every call
 * (and to each site in proportion to its calls).
 */
struct est_neighbour {
	bool applied; /* false: not run (see @why) */
	char why[512];
	size_t calls; /* calls replayed in each order */
	int runs, cpu;
	double speed;	/* today's sorted replay / today's pure model, per call */
	size_t nr_rows; /* the arrays below are per policy row (NAN: the oracle) */
	double *shuffled_ns, *sorted_ns, *order_ns, *residual_ns; /* order: shuffled - sorted */
};

void est_neighbour_free(struct est_neighbour *nb);

/* Fills @nb as not applied, saying @why. */
void est_neighbour_skip(struct est_neighbour *nb, const char *why);

#endif
