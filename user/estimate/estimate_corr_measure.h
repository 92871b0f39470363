/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_corr_measure.h: calibrate --mix: the corrections for a length mix, measured */
#ifndef CP_ESTIMATE_CORR_MEASURE_H
#define CP_ESTIMATE_CORR_MEASURE_H

#include <stddef.h>
#include "estimate_run.h"

/* The neighbour replay's bytes per order and run are bounded: at most this many ... */
#define EST_NB_MAX_BYTES (8u << 20)
/* ... but never fewer calls than this */
#define EST_NB_MIN_CALLS 200

/*
 * calibrate --mix (docs/estimate.md#the-mix-correction): for every family of @run's input @i
 * (or the one asked for), replays its lengths on this CPU through the replicas of @run's first
 * cost model (which must have been measured here) for the mix and the neighbour corrections,
 * and stores them in that model under the digest of the mix (estimate_corr.h). A correction
 * that cannot apply is stored as skipped, saying why (one length bucket: shuffled and sorted
 * are the same order). Prints a line per replay. Returns 0, or -errno after printing why.
 */
int est_corr_measure(struct est_run *run, size_t i);

#endif
