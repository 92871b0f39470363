// SPDX-License-Identifier: GPL-2.0
/* calib_stats.c: median and outlier-trimmed mean of timing samples */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "calib_stats.h"
#include "lib/median.h"

double calib_robust_mean(double *v, size_t n, double quantum)
{
	double cut, sum = 0;
	size_t i;

	if (!n)
		return 0;
	cut = median_sorted(v, n) * 1.25 + 2 * quantum;
	for (i = 0; i < n && v[i] <= cut; i++)
		sum += v[i];
	return sum / (double)i; /* i >= 1: the smallest sample is below the cut */
}

double calib_median_ci(const double *v, size_t n)
{
	double w[64], med, sigma;
	size_t i, m = n < 64 ? n : 64;

	if (n < 2)
		return INFINITY;
	memcpy(w, v, m * sizeof(*w));
	med = median_sorted(w, m);
	if (m < 5) {
		sigma = (w[m - 1] - w[0]) / tippett_d2(m);
	} else {
		for (i = 0; i < m; i++)
			w[i] = fabs(w[i] - med);
		sigma = 1.4826 * median_sorted(w, m);
	}
	/* The median's standard error is about 1.2533 sigma / sqrt(n). */
	return 1.96 * 1.2533 * sigma / sqrt((double)m);
}
