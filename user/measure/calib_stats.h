/* SPDX-License-Identifier: GPL-2.0 */
/* calib_stats.h: calibrate's own estimators: a mean that drops outliers, the median's interval */
#ifndef CP_CALIB_STATS_H
#define CP_CALIB_STATS_H

#include <stddef.h>

/* The median itself is lib/median.h's median_sorted() (NAN for no values), as everywhere. */
/*
 * Mean of the samples at or below median * 1.25 + 2 * @quantum (sorts @v in place). When the
 * timer ticks in steps of @quantum, a single short call reads as a whole number of steps; which
 * one depends on where the call fell between two ticks, so the mean of many such samples is
 * unbiased where the median sticks to one step. The cut drops interrupts and preemptions.
 */
double calib_robust_mean(double *v, size_t n, double quantum);

/*
 * Half-width of the 95% interval of the median of @v[0..n) (not changed): 1.96 times the
 * median's standard error, about 1.2533 sigma / sqrt(n), sigma from the median absolute
 * deviation (robust to a stray run) from 5 runs on, from the range (Tippett's d2) below.
 * INFINITY for n < 2.
 */
double calib_median_ci(const double *v, size_t n);

#endif
