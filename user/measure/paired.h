/* SPDX-License-Identifier: GPL-2.0 */
/* paired.h: a family's own mix timed under every policy against today's code, round by round */
#ifndef CP_PAIRED_H
#define CP_PAIRED_H

#include <stddef.h>
#include <stdint.h>
#include "costmodel/mixmeas.h"
#include "costmodel/protocol.h"
#include "estimate/estimate_options.h"
#include "estimate/estimate_result.h"

struct paired_opts {
	const struct est_cache *cache;
	size_t ws_bytes;    /* warm working set per side; 0: replay_default_ws() */
	size_t cold_bytes;  /* a flushed side's region; 0: replay_default_cold() */
	size_t chunk_calls; /* 0: PAIRED_CHUNK, fewer for long copies */
	double budget_s; /* seconds of rounds (more, up to PAIRED_MAX_BUDGETS times, for quiet) */
	double site_budget_s; /* the hottest sites' own mixes, in all (paired_sites.h); 0: none */
	uint64_t seed;
	int cpu; /* CPU to pin to; -1: the one it runs on */
};

/*
 * The paired measurement of @fr's mix (its bucket_calls and bucket_bytes, as est_family_evaluate()
 * gives them: calls, or calls inferred from samples) on this CPU (docs/estimate.md#the-paired-
 * measurement), with address alignments drawn from @dst_align / @src_align (64 counts each, or
 * NULL: uniform) and distance classes from @dist (CP_NBUCKETS x CP_NR_DIST calls, or NULL: the
 * sides placed independently). Each round draws a chunk of calls from the mix, times a fixed reference chunk
 * under today's code (the core's state), then the chunk under every code path of @fr's rows and
 * the A/A control in an order drawn afresh, each timed pass after an untimed one over the
 * previous round's calls. Every replica's bytes are checked first. Fills @out's figures and
 * conditions (the caller sets digest, input, weight and calls_note).
 *
 * A physically impossible result is measured again by the measurement layer's one rule
 * (measure_retry.h: MEASURE_RETRY_PAIRED_TRIES in all, each again with a new seed and
 * MEASURE_RETRY_PAIRED_BUDGET times the budget), then refused: the A/A control, or T=0 (the dispatch, then the string op) against `always` (the
 * string op alone) cheaper, off by more than PAIRED_IMPOSSIBLE_PCT and twice the interval.
 * Returns 0, -EDOM (refused, printed), -EINTR (a stop was asked for), or -errno after printing.
 */
int paired_measure(const struct est_family_result *fr, const double *dst_align,
		   const double *src_align, const double *dist, const struct paired_opts *o,
		   struct mixmeas *out);

/*
 * "A/A control +0.24% (-0.15 .. +0.97)" of @mm into @buf (@n bytes), or, with fewer quiet rounds
 * than a figure needs, that it is not known and why: never a NaN printed. @buf.
 */
const char *paired_control_text(const struct mixmeas *mm, char *buf, size_t n);

/*
 * How a sampled family's calls were drawn (the assumption its replay stands on), for the entry's
 * "calls_note"; NULL for counted calls (or no memory). Caller frees.
 */
char *paired_calls_note(const struct est_family_result *fr, const struct est_options *o);

#endif
