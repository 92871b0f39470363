/* SPDX-License-Identifier: GPL-2.0 */
/* paired_stats.h: the median of per-round ratios and its bootstrap interval, reproducibly */
#ifndef CP_PAIRED_STATS_H
#define CP_PAIRED_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Resamples of the bootstrap: the interval's ends move by well under 0.1 point past this. */
#define PAIRED_BOOTSTRAP 2000

/* The median of @v[0..n) (reordered in place; quickselect); NAN for n == 0. */
double paired_median(double *v, size_t n);

/*
 * The median of @ratio[0..n) and its 95% percentile-bootstrap interval over the n rounds
 * (PAIRED_BOOTSTRAP resamples with replacement, drawn from @seed so that the same rounds always
 * give the same interval), each as 100 * (x - 1): a change in percent. @ratio is not changed.
 * Returns 0, or -ENOMEM.
 */
int paired_median_ci(const double *ratio, size_t n, uint64_t seed, double *pct, double *lo,
		     double *hi);

#endif
