/* SPDX-License-Identifier: GPL-2.0 */
/* calib_noise.h: what disturbed a calibration: load, steal time, frequency, a busy SMT sibling */
#ifndef CP_CALIB_NOISE_H
#define CP_CALIB_NOISE_H

#include <stddef.h>

#define CALIB_NOISE_MAX_SIBLINGS 8

/* Counters taken at the start, then the extremes seen while sampling. */
struct calib_noise {
	int cpu;
	double steal0, total0;			     /* every CPU's jiffies (/proc/stat "cpu") */
	int siblings[CALIB_NOISE_MAX_SIBLINGS];	     /* SMT siblings of @cpu, itself excluded */
	double sib_busy0[CALIB_NOISE_MAX_SIBLINGS];  /* their busy jiffies ... */
	double sib_total0[CALIB_NOISE_MAX_SIBLINGS]; /* ... of all */
	size_t nr_siblings;
	double khz_min, khz_max; /* @cpu's scaling_cur_freq, 0 if unknown */
};

/* Takes the starting counters for a calibration pinned to @cpu. */
void calib_noise_start(struct calib_noise *n, int cpu);
/* Samples @cpu's frequency again (cheap: call between passes). */
void calib_noise_sample(struct calib_noise *n);
/*
 * What was seen since the start, as one phrase: "load average 1.90 on 2 CPUs, steal time 4.1%
 * of CPU time, frequency 2000-3000 MHz, SMT sibling CPU 3 busy 80% of the time" (parts that
 * cannot be read are left out; "nothing unusual seen" when none stands out).
 */
void calib_noise_describe(const struct calib_noise *n, char *buf, size_t len);

#endif
