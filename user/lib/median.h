/* SPDX-License-Identifier: GPL-2.0 */
/* median.h: the median of a few doubles, by sorting them */
#ifndef CP_MEDIAN_H
#define CP_MEDIAN_H

#include <stddef.h>

/*
 * The median of @v[0..n) (the mean of the middle two for even n), with @v sorted ascending in
 * place, which callers may rely on; NAN for n == 0. For the handful of values calibrate's runs
 * and a model's sittings give; the paired rounds' thousands use quickselect (paired_stats.h).
 */
double median_sorted(double *v, size_t n);

#endif
