/* SPDX-License-Identifier: GPL-2.0 */
/* mixmeas_pool.h: several sittings of one mix's paired measurement, taken as one answer */
#ifndef CP_MIXMEAS_POOL_H
#define CP_MIXMEAS_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include "mixmeas.h"

/* Sittings kept per mix: a cost model holds the newest this many. */
#define MIXMEAS_MAX_SITTINGS 8

/*
 * True if @a and @b measured the same thing: one family, mix, today's code and weighting, under
 * the same conditions (cache, working set, cold region, alignment, chunk and warm-up), the same
 * measurement protocol (protocol.h: every constant, and its version) and the same policies.
 * Sittings of the same thing pool; anything else replaces.
 */
bool mixmeas_same_measurement(const struct mixmeas *a, const struct mixmeas *b);
/*
 * Why @a and @b are not sittings of one measurement ("other conditions", ...), or NULL. When
 * they differ only in the cache state or the working set (the condition a measurement stands
 * for: calibrate --mix measures a matrix of them, docs/calibrate.md#conditions), the reason is
 * MIXMEAS_OTHER_CELL: two cells of one matrix, kept side by side and never pooled.
 */
const char *mixmeas_why_apart(const struct mixmeas *a, const struct mixmeas *b);
#define MIXMEAS_OTHER_CELL "another cache state or working set"
/* True if @a and @b were replayed in the same cache state, working set and cold region. */
bool mixmeas_same_condition(const struct mixmeas *a, const struct mixmeas *b);
/* True if @a and @b are cells of one matrix: alike in everything but the condition. */
bool mixmeas_other_cell(const struct mixmeas *a, const struct mixmeas *b);

/*
 * The sittings @s[0..n) (n >= 1, all mixmeas_same_measurement(), oldest first) as one
 * measurement in @out: each figure's change the median of the sittings' (the mean of two), its
 * interval from the lowest of their low ends to the highest of their high ends, so that it
 * spans every state of the machine the sittings met, not one run's; the A/A control alike.
 * Rounds, batches and seconds add up; the strings, the CPU and the seed are the newest
 * sitting's; sittings = n, first_when the oldest's end. Returns 0 or -ENOMEM.
 *
 * A paired figure's interval covers one run's seconds; the host moved fleet memset's T=32
 * between +298% and +314% in states that lasted minutes (docs/benchmarks.md), so that runs in
 * two states each had intervals of about +-1 point that missed the other.
 */
int mixmeas_pool(const struct mixmeas *const *s, size_t n, struct mixmeas *out);

#endif
