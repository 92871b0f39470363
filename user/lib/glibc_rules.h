/* SPDX-License-Identifier: GPL-2.0 */
/* glibc_rules.h: each known glibc version's rules for its x86 string thresholds on a CPU */
#ifndef CP_GLIBC_RULES_H
#define CP_GLIBC_RULES_H

#include <stdbool.h>
#include <stdint.h>
#include "asmref_cpu.h"
#include "machine.h"

/*
 * How one glibc release sets its defaults (dl_init_cacheinfo and init_cpu_features, read in
 * glibc's history; docs/estimate.md#glibc-versions). The one table of them is glibc_rules.c.
 */
struct glibc_rules {
	unsigned int major, minor;
	bool amd_movsb_is_nt;	  /* AMD: rep_movsb_threshold = the non-temporal threshold */
	bool stop_is_nt;	  /* stop threshold = non-temporal on every vendor (else AMD: L2) */
	bool amd_stosb_never;	  /* AMD: rep_stosb_threshold = SIZE_MAX unless tuned */
	bool nt_divisor_by_model; /* Intel: shared / 2 or / 8 by microarchitecture, else / 4 */
	bool memset_nt_intel, memset_nt_amd; /* x86_memset_non_temporal_threshold = non-temporal */
	bool avoid_stosb;		     /* the Avoid_STOSB preference exists */
	const char *read_in;		     /* where these rules come from */
};

/*
 * The rules of glibc @major.@minor: the known row itself (*@exact true), else the newest known
 * release older than it (the oldest known for an older one), *@exact false: an answer made
 * with them says so.
 */
const struct glibc_rules *glibc_rules_find(unsigned int major, unsigned int minor, bool *exact);
/* The known releases, oldest first, as "2.36, 2.40, 2.41". */
const char *glibc_rules_known(void);

/* One derived threshold: its value when known, and how it was made. */
struct glibc_value {
	bool known;
	uint64_t value; /* UINT64_MAX: never (glibc's SIZE_MAX) */
	char why[200];
};

struct glibc_defaults {
	struct glibc_value rep_movsb, stop, non_temporal, rep_stosb, memset_non_temporal;
};

/*
 * The defaults glibc @r computes on machine @m (its vendor, family, model, flags and caches,
 * as a profile records them), without GLIBC_TUNABLES. @vec: the vector features of that CPU
 * (asmref_cpu_detect() when @m is this machine), or NULL: they matter only without FSRM, and
 * then rep_movsb is not known. A value needing a cache size the machine block lacks is not
 * known; each why says which rule and which facts made it.
 */
void glibc_rules_defaults(const struct glibc_rules *r, const struct machine *m,
			  const struct asmref_cpu *vec, struct glibc_defaults *out);

#endif
