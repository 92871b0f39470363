/* SPDX-License-Identifier: GPL-2.0 */
/* footprint.h: the sampled addresses a site's footprint is computed from (__u64-style only) */
#ifndef CP_FOOTPRINT_H
#define CP_FOOTPRINT_H

/*
 * Every CP_FOOTPRINT_EVERY-th call of a site on a CPU keeps its destination, source, length
 * and time in that CPU's ring of the site's last CP_FOOTPRINT_RING samples. User space merges
 * the CPUs' rings by time and keeps the last CP_FOOTPRINT_RING of all: each of those is among
 * the last CP_FOOTPRINT_RING of its own CPU, so the union holds them. From them it counts the
 * distinct lines and pages each side touched in that window (profile_footprint.h,
 * docs/profile-format.md#footprint). 64 and 64: the window spans 4,096 calls; a call not
 * sampled pays one test of the site's call count, which hist.bpf.c keeps anyway, and a sample
 * a lookup, a clock read and a line's stores (docs/benchmarks.md#footprint).
 */
#define CP_FOOTPRINT_EVERY 64
#define CP_FOOTPRINT_RING 64

struct footprint_sample {
	__u64 ns; /* bpf_ktime_get_ns() */
	__u64 dst;
	__u64 src;
	__u64 len;
};

/* One site's ring on one CPU. */
struct footprint_ring {
	__u64 taken; /* samples written: the next goes to taken % CP_FOOTPRINT_RING */
	struct footprint_sample s[CP_FOOTPRINT_RING];
};

#endif
