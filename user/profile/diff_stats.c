// SPDX-License-Identifier: GPL-2.0
/* diff_stats.c: significance of a change: conditional binomial test of two Poisson rates, and
 * the two-proportion z test */
#include <math.h>
#include "diff_stats.h"

/* log of the binomial(n, p) probability of k. */
static double log_binom_pmf(double k, double n, double p)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + k * log(p) + (n - k) * log1p(-p);
}

double diff_stats_rate_z(double n1, double e1, double n2, double e2)
{
	double n = n1 + n2, p;

	if (!(n > 0) || !(e1 > 0) || !(e2 > 0))
		return 0;
	p = e2 / (e1 + e2);
	return (n2 - n * p) / sqrt(n * p * (1 - p));
}

double diff_stats_rate(double n1, double e1, double n2, double e2)
{
	double n = n1 + n2, p, lo = 0, hi = 0, k, pv;

	if (!(n > 0) || !(e1 > 0) || !(e2 > 0))
		return 1;
	p = e2 / (e1 + e2);
	if (n > DIFF_STATS_EXACT_MAX)
		return erfc(fabs(diff_stats_rate_z(n1, e1, n2, e2)) / sqrt(2));
	/* Exact: P(X <= n2) and P(X >= n2) for X ~ binomial(n, p). */
	for (k = 0; k <= n; k++) {
		double pk = exp(log_binom_pmf(k, n, p));

		if (k <= n2)
			lo += pk;
		if (k >= n2)
			hi += pk;
	}
	pv = 2 * (lo < hi ? lo : hi);
	return pv < 1 ? pv : 1;
}

double diff_stats_prop(double x1, double n1, double x2, double n2)
{
	double q, se;

	if (!(n1 > 0) || !(n2 > 0))
		return 1;
	q = (x1 + x2) / (n1 + n2);
	if (!(q > 0) || !(q < 1))
		return 1;
	se = sqrt(q * (1 - q) * (1 / n1 + 1 / n2));
	return erfc(fabs(x2 / n2 - x1 / n1) / se / sqrt(2));
}
