/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_neighbour_measure.h: the neighbour correction measured: the whole mix replayed */
#ifndef CP_ESTIMATE_NEIGHBOUR_MEASURE_H
#define CP_ESTIMATE_NEIGHBOUR_MEASURE_H

#include "calib/costmodel.h"
#include "estimate_neighbour.h"
#include "estimate_options.h"

struct est_family_result;

/* The replay's fixed seed (another than the mix correction's). */
#define EST_NB_SEED 0xbb67ae8584caa73bULL

/*
 * Replays @fr's whole mix (@calls calls, at most EST_MIX_CALLS, EST_MIX_CALLS_FLUSHED with
 * flushed states; EST_MIX_RUNS runs) through every policy row, shuffled and sorted, and sets @nb's per-row
 * figures. @pure_ns and @mixed_ns are each row's total under the pure model and with the mix
 * correction (the same without one), over @fr->calls calls: residual = (shuffled - sorted) /
 * speed - (mixed - pure) per call, speed = today's sorted / today's pure per call. Returns 0
 * (no calls to replay: @nb skipped), or -errno after printing why.
 */
int est_neighbour_measure(const struct est_family_result *fr, const double *pure_ns,
			  const double *mixed_ns, const struct costmodel *m,
			  const struct est_cache *cache, size_t calls, struct est_neighbour *nb);

#endif
