/* SPDX-License-Identifier: GPL-2.0 */
/* median.h: the statistics of timings in one home: medians, the k-th value, Tippett's d2 */
#ifndef CP_MEDIAN_H
#define CP_MEDIAN_H

#include <stddef.h>

/*
 * One convention for every median here: the mean of the middle two for even n, NAN for n == 0.
 * median_sorted() sorts (for the handful of values calibrate's runs and a model's sittings
 * give; callers may rely on @v sorted ascending after it); median_select() selects (for the
 * paired rounds' thousands; @v reordered).
 */
double median_sorted(double *v, size_t n);
double median_select(double *v, size_t n);

/* The @k-th smallest of @v[0..n), k < n (reordered in place: v[0..k) <= v[k] <= v(k..n)). */
double median_kth(double *v, size_t n, size_t k);

/*
 * Tippett's d2: the expected range of @n normal samples, in standard deviations (n from 2;
 * past 10 the value at 10, a conservative sigma from a range). 0 for n < 2: no range.
 */
double tippett_d2(size_t n);

#endif
