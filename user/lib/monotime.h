/* SPDX-License-Identifier: GPL-2.0 */
/* monotime.h: seconds on CLOCK_MONOTONIC, for durations and deadlines */
#ifndef CP_MONOTIME_H
#define CP_MONOTIME_H

#include <time.h>

/* Seconds since an arbitrary start; only differences mean anything. */
static inline double monotime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
