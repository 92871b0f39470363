/* SPDX-License-Identifier: GPL-2.0 */
/* asmref_cpu.h: the CPU features the replicas need and glibc's selectors read, from CPUID */
#ifndef ASMREF_CPU_H
#define ASMREF_CPU_H

#include <stdbool.h>

/*
 * The vendor, as glibc counts it: Hygon ("HygonGenuine") is AMD. This is the one rule; user/
 * asks it through lib/machine.h.
 */
enum asmref_vendor {
	ASMREF_VENDOR_UNKNOWN, /* not read (e.g. a perf.data without its cpuid header) */
	ASMREF_VENDOR_INTEL,
	ASMREF_VENDOR_AMD,
	ASMREF_VENDOR_OTHER,
};

/* The vendor of a CPUID vendor string ("GenuineIntel"); NULL or "" is unknown. */
enum asmref_vendor asmref_cpu_vendor_of(const char *vendor_id);

/*
 * "Usable" features, as glibc counts them: the CPUID bit, and for vector state the operating
 * system's XCR0 (AVX: XMM and YMM state; AVX-512: also opmask and both ZMM halves).
 */
struct asmref_cpu {
	bool intel, amd; /* vendor: glibc sets its preferences by vendor */
	bool sse2, ssse3, avx, avx2, avx512f, avx512vl, avx512bw, avx512er, avx_vnni;
	bool bmi2, erms, fsrm, rtm;
};

/* This CPU, read with CPUID and XGETBV (no COPYPROF_TEST_HIDE_FLAGS: that is asmref_usable's). */
void asmref_cpu_detect(struct asmref_cpu *c);

#endif /* ASMREF_CPU_H */
