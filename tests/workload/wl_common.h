/* SPDX-License-Identifier: GPL-2.0 */
/* wl_common.h: what the timing workloads share: their random numbers, clock and sort order */
#ifndef CP_WL_COMMON_H
#define CP_WL_COMMON_H

#include <stdint.h>
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

#endif
