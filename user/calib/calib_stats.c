// SPDX-License-Identifier: GPL-2.0
/* calib_stats.c: median and outlier-trimmed mean of timing samples */
#include <stdlib.h>
#include "calib_stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double calib_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double calib_robust_mean(double *v, size_t n, double quantum)
{
	double cut, sum = 0;
	size_t i;

	if (!n)
		return 0;
	cut = calib_median(v, n) * 1.25 + 2 * quantum;
	for (i = 0; i < n && v[i] <= cut; i++)
		sum += v[i];
	return sum / (double)i; /* i >= 1: the smallest sample is below the cut */
}
