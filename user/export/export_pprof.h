/* SPDX-License-Identifier: GPL-2.0 */
/* export_pprof.h: a copyprof profile as a gzipped pprof profile (docs/export.md#pprof) */
#ifndef CP_EXPORT_PPROF_H
#define CP_EXPORT_PPROF_H

#include <stddef.h>
#include <stdint.h>
#include "lib/count_sum.h"
#include "profile/profile.h"

/* What went into the pprof profile, for the summary line. */
struct export_pprof_stats {
	uint64_t samples; /* pprof Samples written */
	uint64_t locations;
	count_sum calls, bytes; /* counted sites' totals, exact (lib/count_sum.h) */
	count_sum sampled;	/* sampled sites' samples */
};

/* Where a sample's length bucket goes (docs/export.md#pprof); both always set len_min/len_max. */
enum export_length_as {
	EXPORT_LENGTH_FRAME, /* also a synthetic leaf frame "len 4096..4607" (the default) */
	EXPORT_LENGTH_LABEL, /* only the labels: the leaf is the site's or stack's function */
};

struct export_pprof_opts {
	enum export_length_as length_as;
};

/*
 * One pprof Sample per (site, caller, length bucket) of counted sites and per (stack, bucket)
 * of sampled ones; with EXPORT_LENGTH_FRAME (or @o NULL) the leaf frame names the bucket
 * ("len 4096..4607"). Every total of the profile is kept exactly. @out is malloc()ed.
 * Returns 0 or -ENOMEM.
 */
int export_pprof(const struct profile *p, const struct export_pprof_opts *o, void **out,
		 size_t *len, struct export_pprof_stats *st);

#endif
