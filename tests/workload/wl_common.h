/* SPDX-License-Identifier: GPL-2.0 */
/* wl_common.h: what the timing workloads share: their random numbers, clock and sort order */
#ifndef CP_WL_COMMON_H
#define CP_WL_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* xorshift64*: the workloads' random numbers, the same sequence for a seed on every run. */
static inline uint64_t rng(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static inline double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* qsort's order of doubles, ascending. */
static inline int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * A paired timing's one output line, "median noise ns0 ns1": the median of the @rounds paired
 * differences @pct (in %; sorted in place), the half-range of the medians of 5 blocks of them in
 * run order (the noise), and each side's mean ns a pass.
 */
static inline void wl_report(double *pct, size_t rounds, double ns0, double ns1)
{
	double blk[5];
	size_t b;

	for (b = 0; b < 5; b++) {
		size_t lo = rounds * b / 5, hi = rounds * (b + 1) / 5;

		qsort(pct + lo, hi - lo, sizeof(double), cmp);
		blk[b] = pct[lo + (hi - lo) / 2];
	}
	qsort(pct, rounds, sizeof(double), cmp);
	qsort(blk, 5, sizeof(double), cmp);
	printf("%.3f %.3f %.3f %.3f\n", pct[rounds / 2], (blk[4] - blk[0]) / 2, ns0 / rounds,
	       ns1 / rounds);
}

#endif
