/* SPDX-License-Identifier: GPL-2.0 */
/* glibc_thresholds.h: the thresholds a glibc 2.36 process copies with, from tunables and CPU */
#ifndef CP_GLIBC_THRESHOLDS_H
#define CP_GLIBC_THRESHOLDS_H

#include <stdbool.h>
#include <stdint.h>
#include "asmref_cpu.h"
#include "asmref_glibc.h"
#include "glibc_tunables.h"

/*
 * The replicas' knobs for a process whose `ld.so --list-tunables` printed @t, on CPU @cpu:
 * rep_movsb, rep_stosb and non-temporal thresholds as listed; the stop threshold as listed
 * when this glibc has the tunable, else by glibc 2.36's rule (AMD: the L2 size glibc reports,
 * sysconf(_SC_LEVEL2_CACHE_SIZE), which the caller passes as @amd_l2; others: the
 * non-temporal threshold); the short-distance rule on Intel CPUs with FSRM. Returns 0, or
 * -ENOENT when @t lacks one of the three listed thresholds (not an x86-64 glibc 2.33+).
 */
int glibc_thresholds_in_force(const struct glibc_tunables *t, const struct asmref_cpu *cpu,
			      uint64_t amd_l2, struct asmref_glibc_knobs *out);

/*
 * Whether glibc 2.36 takes @value for x86_rep_movsb_threshold or x86_non_temporal_threshold
 * (strictly above the listed min, at most the max: 512 is ignored where min is 0x200) or
 * x86_rep_stosb_threshold (min to max, inclusive). Measured against ld.so on glibc 2.36; a
 * value it ignores leaves the default in force, silently. For another glibc, ask the loader:
 * glibc_tunables_read() with the candidate shows the value in force.
 */
bool glibc_thresholds_accepts(const struct glibc_tunable *t, bool strict_min, uint64_t value);

#endif
