/* SPDX-License-Identifier: GPL-2.0 */
/* paired_stats.h: the median of per-round ratios and its bootstrap interval, reproducibly */
#ifndef CP_PAIRED_STATS_H
#define CP_PAIRED_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Resamples of the bootstrap: the interval's ends move by well under 0.1 point past this. */
#define PAIRED_BOOTSTRAP 2000

/*
 * Rounds a group needs to be drawn as a group of its own; smaller ones are joined to the
 * groups beside them. A batch that found the core quiet only 4 times, each with today's pass
 * disturbed (every policy 11-14% "cheaper", the A/A control too), drawn as often as a batch of
 * 96, stretched the A/A control's interval to -6.9% and turned "keep today's code" into "no
 * difference" in one run of five (bench/estimate_repeat.sh).
 */
#define PAIRED_MIN_GROUP 20

/* The median of @v[0..n) (reordered in place; quickselect); NAN for n == 0. */
double paired_median(double *v, size_t n);

/*
 * The median of @ratio[0..n) and its 95% percentile-bootstrap interval (PAIRED_BOOTSTRAP
 * resamples, drawn from @seed so that the same rounds always give the same interval), each as
 * 100 * (x - 1): a change in percent. With @group (round i in group @group[i] < @nr_groups), a
 * two-stage bootstrap: each resample draws the groups (those of fewer than PAIRED_MIN_GROUP
 * rounds joined to their neighbours first) with replacement, then each drawn group's rounds
 * with replacement, so that the interval carries the groups' differences too;
 * without (NULL), the rounds are drawn alone. @ratio is not changed. Returns 0, or -ENOMEM.
 */
int paired_median_ci(const double *ratio, const uint8_t *group, size_t nr_groups, size_t n,
		     uint64_t seed, double *pct, double *lo, double *hi);

#endif
