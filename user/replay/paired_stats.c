// SPDX-License-Identifier: GPL-2.0
/* paired_stats.c: the median of per-round ratios and its bootstrap interval, reproducibly */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "paired_stats.h"
#include "replay_rng.h"

/* The k-th smallest of @v[0..n) (Wirth's selection); on return v[0..k) <= v[k] <= v(k..n). */
static double select_kth(double *v, size_t n, size_t k)
{
	long lo = 0, hi = (long)n - 1, kk = (long)k;

	while (lo < hi) {
		double pivot = v[kk];
		long i = lo, j = hi;

		do {
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i <= j) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			lo = i;
		if (kk < i)
			hi = j;
	}
	return v[kk];
}

double paired_median(double *v, size_t n)
{
	double a, b;
	size_t i;

	if (!n)
		return NAN;
	a = select_kth(v, n, n / 2);
	if (n % 2)
		return a;
	/* The lower middle is the largest of the half below the upper one. */
	b = v[0];
	for (i = 1; i < n / 2; i++)
		if (v[i] > b)
			b = v[i];
	return (a + b) / 2;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int paired_median_ci(const double *ratio, size_t n, uint64_t seed, double *pct, double *lo,
		     double *hi)
{
	double *tmp = malloc((n ? n : 1) * sizeof(*tmp)), *meds = malloc(PAIRED_BOOTSTRAP * 8);
	uint64_t s = (seed ^ 0x632be59bd9b4e019ULL) * 0x9e3779b97f4a7c15ULL | 1;
	size_t i, b;

	if (!tmp || !meds) {
		free(tmp);
		free(meds);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		tmp[i] = ratio[i];
	*pct = 100 * (paired_median(tmp, n) - 1);
	for (b = 0; b < PAIRED_BOOTSTRAP && n; b++) {
		for (i = 0; i < n; i++)
			tmp[i] = ratio[replay_rng_below(&s, n)];
		meds[b] = paired_median(tmp, n);
	}
	if (n) {
		qsort(meds, PAIRED_BOOTSTRAP, sizeof(*meds), cmp_double);
		*lo = 100 * (meds[(size_t)(0.025 * PAIRED_BOOTSTRAP)] - 1);
		*hi = 100 * (meds[(size_t)(0.975 * PAIRED_BOOTSTRAP) - 1] - 1);
	} else {
		*lo = *hi = NAN;
	}
	free(tmp);
	free(meds);
	return 0;
}
