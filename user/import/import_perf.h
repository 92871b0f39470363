/* SPDX-License-Identifier: GPL-2.0 */
/* import_perf.h: a perf record -g profile (perf.data or perf script text) into a sampled one */
#ifndef CP_IMPORT_PERF_H
#define CP_IMPORT_PERF_H

#include <stdbool.h>
#include <stdint.h>
#include "profile/profile.h"

struct import_perf_args {
	const char *input;  /* perf.data, read through `perf script`; NULL with @script */
	const char *script; /* perf script text instead; "-" is stdin */
	bool no_text;	    /* do not read this machine's kernel text for inline copies */
};

/* How the copy samples' lengths went (record --sample's rules, from perf's iregs). */
struct import_perf_lengths {
	bool iregs_asked;	  /* perf script was run with -F ...,iregs */
	uint64_t no_regs;	  /* copy samples without registers (no --intr-regs) */
	uint64_t no_text;	  /* with registers, but no kernel text of theirs to analyse */
	uint64_t missing_samples; /* with registers, but not those their rule reads */
	uint16_t missing;	  /* those registers (FLOW_* bits) */
	uint64_t quality[3];	  /* the rest, by enum len_quality */
};

/* What was read, for the summary. */
struct import_perf_stats {
	uint64_t total;	       /* samples */
	uint64_t copy;	       /* of which in the copy family */
	uint64_t other_kernel; /* kernel leaves whose symbol is not this machine's */
	struct import_perf_lengths len;
};

/*
 * Reads every sample, charges the copy-family ones to their leaf and caller (sample_agg.h),
 * recovers their lengths from interrupt registers where the data has them, and fills @p's
 * meta, sample meta (with lengths_note when lengths are unknown, and why) and sites. --leaf symbols are in copy_family already.
 * Returns 0, or -errno once the reason is printed.
 */
int import_perf_run(const struct import_perf_args *a, struct profile *p,
		    struct import_perf_stats *st);

#endif
