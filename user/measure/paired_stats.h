/* SPDX-License-Identifier: GPL-2.0 */
/* paired_stats.h: the median of per-round ratios and its bootstrap interval, reproducibly */
#ifndef CP_PAIRED_STATS_H
#define CP_PAIRED_STATS_H

#include <stddef.h>
#include <stdint.h>
#include "costmodel/protocol.h"

/*
 * The median of @ratio[0..n) and its 95% percentile-bootstrap interval (PAIRED_BOOTSTRAP
 * resamples, drawn from @seed so that the same rounds always give the same interval), each as
 * 100 * (x - 1): a change in percent. With @group (round i in group @group[i] < @nr_groups),
 * every group weighs the same in the median (each a batch: another process, place of the code
 * and memory, whichever has more quiet rounds), and a two-stage bootstrap: each resample draws
 * the groups (those of fewer than PAIRED_MIN_GROUP rounds joined to their neighbours first)
 * with replacement, then as many rounds from each drawn group with replacement, so that the
 * interval carries the groups' differences too;
 * without (NULL), the rounds are drawn alone. @ratio is not changed. Returns 0, or -ENOMEM.
 */
int paired_median_ci(const double *ratio, const uint8_t *group, size_t nr_groups, size_t n,
		     uint64_t seed, double *pct, double *lo, double *hi);

#endif
