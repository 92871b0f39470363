// SPDX-License-Identifier: GPL-2.0
/* median.c: the statistics of timings in one home: medians, the k-th value, Tippett's d2 */
#include <math.h>
#include <stdlib.h>
#include "median.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median_sorted(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Wirth's selection. */
double median_kth(double *v, size_t n, size_t k)
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

double median_select(double *v, size_t n)
{
	double a, b;
	size_t i;

	if (!n)
		return NAN;
	a = median_kth(v, n, n / 2);
	if (n % 2)
		return a;
	/* The lower middle is the largest of the half below the upper one. */
	b = v[0];
	for (i = 1; i < n / 2; i++)
		if (v[i] > b)
			b = v[i];
	return (a + b) / 2;
}

double tippett_d2(size_t n)
{
	static const double d2[] = { 0,	    0,	   1.128, 1.693, 2.059, 2.326,
				     2.534, 2.704, 2.847, 2.970, 3.078 };

	return d2[n < 10 ? n : 10];
}
