/* SPDX-License-Identifier: GPL-2.0 */
/* paired_matrix.h: the conditions calibrate --mix measures a mix in: cache state, working set */
#ifndef CP_PAIRED_MATRIX_H
#define CP_PAIRED_MATRIX_H

#include <stddef.h>
#include <stdint.h>
#include "estimate/estimate_options.h"

/*
 * Which code is cheaper depends on where the copies' lines are: glibc's own knob on uniform
 * 2300-3999 B lengths, T=4096 against 2112, measured -19.5% with 8 KiB a side and +2.2% at
 * 256 KiB on an Intel Xeon (Sapphire Rapids class; AMD Zen 5: -24.3% and +18.5%), and a
 * short-copy mix read "keep today's code" warm but "T=32 saves 13%" with cold destinations.
 * A profile records no footprint, so calibrate --mix measures the smallest matrix that holds
 * both mechanisms (docs/calibrate.md#conditions), each condition a stored measurement of its
 * own, never pooled with another's:
 *
 *   [0] warm, replay_default_ws() a side (a quarter of L2): the reference, where the hottest
 *       sites' own mixes are measured too;
 *   [1] warm, replay_small_ws() a side (a quarter of L1d): buffers reused;
 *   [2] dst-flushed, replay_default_ws() a side for the source: every destination line cold.
 *
 * --mix-cache or --mix-ws measures one condition instead, as given (the user knows it).
 *
 * A profile that records a footprint (docs/profile-format.md#footprint) implies a condition of
 * its own (est_footprint_condition(): warm within the footprint's working set): it is measured
 * instead of the matrix, beside the reference, so that its share of the budget is half, and
 * estimate keeps that cell (est_matrix_footprint_cell()).
 */
#define PAIRED_MAX_CONDITIONS 3

struct paired_condition {
	struct est_cache cache;
	size_t ws_bytes; /* per side; 0: replay_default_ws() */
};

/* The default matrix into @c[0..PAIRED_MAX_CONDITIONS); how many (the reference first). */
size_t paired_matrix_default(struct paired_condition *c);
/*
 * With a recorded footprint of @bytes a side (0: none, @c left as it is): @c[0..@n), the
 * default matrix, becomes its reference and the condition the footprint implies
 * (est_footprint_condition(), this CPU's L2 from machine_this()), unless that is the
 * reference itself. The new count: 1 or 2 (@n without a footprint).
 */
size_t paired_matrix_footprint(struct paired_condition *c, size_t n, uint64_t bytes);
/* "warm, 8 KiB a side" (the working set as asked: the replay may grow it for long calls). */
const char *paired_condition_words(const struct paired_condition *c, char *buf, size_t len);

#endif
