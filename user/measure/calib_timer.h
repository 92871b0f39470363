/* SPDX-License-Identifier: GPL-2.0 */
/* calib_timer.h: TSC timestamps fenced around a timed call, TSC frequency and timer overhead */
#ifndef CP_CALIB_TIMER_H
#define CP_CALIB_TIMER_H

#include <stdbool.h>
#include <stdint.h>

struct calib_timer {
	bool rdtscp;	 /* CPUID says RDTSCP exists (some hypervisors hide it) */
	double tsc_hz;	 /* measured against CLOCK_MONOTONIC_RAW */
	double quantum;	 /* smallest step the TSC is seen to advance by (1, or e.g. 21 in VMs) */
	double overhead; /* mean TSC ticks of an empty begin/end pair */
};

/*
 * Measures the TSC frequency over @ms milliseconds (median of three tries), the TSC's step and
 * the overhead of an empty timed region. Needs an invariant TSC; returns 0, or -ENOTSUP after
 * printing why.
 */
int calib_timer_init(struct calib_timer *t, unsigned int ms);
const char *calib_timer_name(const struct calib_timer *t);

/* Start: earlier instructions finish before the TSC is read, later ones start after it. */
static inline uint64_t calib_tsc_begin(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/*
 * End: the TSC is read once the timed instructions have executed (their loads are done; their
 * stores may still sit in the store buffer, as they would for the kernel's caller), and nothing
 * after it starts early. RDTSCP waits by itself; without it, LFENCE does the waiting.
 */
static inline uint64_t calib_tsc_end(const struct calib_timer *t)
{
	uint32_t lo, hi, aux;

	if (t->rdtscp)
		__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	else
		__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

#endif
