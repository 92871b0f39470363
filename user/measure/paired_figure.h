/* SPDX-License-Identifier: GPL-2.0 */
/* paired_figure.h: one path's change against another over chosen rounds, with its interval */
#ifndef CP_PAIRED_FIGURE_H
#define CP_PAIRED_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "costmodel/mixmeas.h"
#include "paired_run.h"

/*
 * The figure of path @p against path @base over the rounds @in[r] (the quiet ones, or the
 * busy ones): the median of the per-round ratios and its interval, bootstrapped over the
 * batches and the rounds within them (paired_median_ci(), drawn from @seed). Fewer than
 * MIXMEAS_MIN_ROUNDS rounds: NAN (0 for @p == @base). Returns 0 or -ENOMEM.
 */
int paired_figure(const struct paired_run *run, const bool *in, size_t p, size_t base,
		  uint64_t seed, struct mixmeas_figure *f);

#endif
