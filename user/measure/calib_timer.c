// SPDX-License-Identifier: GPL-2.0
/* calib_timer.c: TSC frequency against CLOCK_MONOTONIC_RAW, and the cost of reading it */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include "calib_stats.h"
#include "calib_timer.h"
#include "lib/log.h"
#include "lib/machine.h"
#include "lib/median.h"

#define OVERHEAD_ROUNDS 7
#define OVERHEAD_TRIES 2001 /* pairs of reads for the TSC step, then for the overhead */

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* TSC ticks per second over one busy wait of @ms; each end pairs a TSC read with the clock. */
static double tsc_hz_once(unsigned int ms)
{
	uint64_t c0, c1, t0, t1, t;

	t0 = now_ns();
	c0 = calib_tsc_begin();
	t = now_ns();
	t0 = (t0 + t) / 2;
	do
		t1 = now_ns();
	while (t1 - t0 < ms * 1000000ULL);
	c1 = calib_tsc_begin();
	t = now_ns();
	t1 = (t1 + t) / 2;
	return (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
}

int calib_timer_init(struct calib_timer *t, unsigned int ms)
{
	const struct machine *here = machine_this();
	double hz[3], *ov, rounds[OVERHEAD_ROUNDS];
	uint64_t step;
	int i, r;

	if (!here->tsc_invariant) {
		p_err("this CPU has no invariant TSC: the timer's rate would change with the clock "
		      "frequency, so calibrate cannot convert cycles to time");
		return -ENOTSUP;
	}
	t->rdtscp = here->rdtscp;
	for (i = 0; i < 3; i++)
		hz[i] = tsc_hz_once(ms);
	t->tsc_hz = median_sorted(hz, 3);

	ov = malloc(OVERHEAD_TRIES * sizeof(*ov));
	if (!ov)
		return -ENOMEM;
	/* Some TSCs (AMD, some hypervisors) advance by a fixed step: the gcd of many deltas. */
	for (i = 0, step = 0; i < OVERHEAD_TRIES; i++) {
		uint64_t t0 = calib_tsc_begin(), t1 = calib_tsc_begin();

		step = gcd(step, t1 - t0);
	}
	t->quantum = step ? (double)step : 1;
	/*
	 * The overhead is subtracted from every sample: one disturbed measurement of it (121 and
	 * 863 ticks were seen against 56-95 normally) would shift every point. So it is measured
	 * OVERHEAD_ROUNDS times and the median round kept.
	 */
	for (r = 0; r < OVERHEAD_ROUNDS; r++) {
		for (i = 0; i < OVERHEAD_TRIES; i++) {
			uint64_t t0 = calib_tsc_begin();

			ov[i] = (double)(calib_tsc_end(t) - t0);
		}
		rounds[r] = calib_robust_mean(ov, OVERHEAD_TRIES, t->quantum);
	}
	t->overhead = median_sorted(rounds, OVERHEAD_ROUNDS);
	free(ov);
	p_debug("timer: %s, TSC %.1f MHz (tries %.1f/%.1f/%.1f), step %.0f ticks, overhead %.1f "
		"ticks",
		calib_timer_name(t), t->tsc_hz / 1e6, hz[0] / 1e6, hz[1] / 1e6, hz[2] / 1e6,
		t->quantum, t->overhead);
	return 0;
}

const char *calib_timer_name(const struct calib_timer *t)
{
	return t->rdtscp ? "rdtscp" : "lfence+rdtsc";
}
