/* SPDX-License-Identifier: GPL-2.0 */
/* diff_stats.h: is a change between two profiles more than noise: Poisson rates, proportions */
#ifndef CP_DIFF_STATS_H
#define CP_DIFF_STATS_H

/* Up to this many events in all, diff_stats_rate() is exact (binomial); above, normal. */
#define DIFF_STATS_EXACT_MAX 100

/*
 * Two-sided p-value of "@n1 events over exposure @e1 and @n2 over @e2 come from one Poisson
 * rate". Conditional on N = n1 + n2, n2 is then binomial(N, e2 / (e1 + e2)): for N up to
 * DIFF_STATS_EXACT_MAX the exact test (twice the smaller tail, at most 1), above it the
 * normal approximation z = (n2 - N p) / sqrt(N p (1 - p)), p-value erfc(|z| / sqrt 2).
 * 1 when N is 0 or an exposure is not positive.
 */
double diff_stats_rate(double n1, double e1, double n2, double e2);

/*
 * Two-sided p-value of "@x1 of @n1 and @x2 of @n2 are one proportion": the two-proportion z
 * test with the pooled proportion, z = (x2/n2 - x1/n1) / sqrt(q (1 - q) (1/n1 + 1/n2)),
 * q = (x1 + x2) / (n1 + n2). 1 when a denominator is 0 or q is 0 or 1.
 */
double diff_stats_prop(double x1, double n1, double x2, double n2);

/* The z of diff_stats_rate()'s normal approximation (0 when it is undefined). */
double diff_stats_rate_z(double n1, double e1, double n2, double e2);

#endif
