/* SPDX-License-Identifier: GPL-2.0 */
/* export_openmetrics.h: a profile as OpenMetrics 1.0 text histograms (docs/export.md) */
#ifndef CP_EXPORT_OPENMETRICS_H
#define CP_EXPORT_OPENMETRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/hist.h"
#include "profile/profile.h"

/*
 * The histograms' upper bounds: every power of two from 1 to 2^32 and 1536 (the seeds'
 * thresholds 32 ... 8192 among them), all edges of copyprof's buckets. A count is exact for
 * lengths *below* an edge, so the bound is written as le = edge - 1 (lengths are whole
 * bytes). Longer copies (the kernel caps one read or write at 2 GiB) are in +Inf only.
 */
#define OM_NR_EDGES 34
extern const uint64_t om_edges[OM_NR_EDGES];

/* cum[i]: calls (or samples) of @buckets whose length is below om_edges[i]. */
void om_cumulate(const struct hist_slot *buckets, uint64_t cum[OM_NR_EDGES]);
/*
 * @v as a canonical OpenMetrics number, as Go's %g renders a float64 with ".0" added when
 * there is neither a point nor an exponent: 0.0, 4095.0, 1.048575e+06. @v below 2^53.
 */
void om_format_le(char *buf, size_t size, uint64_t v);
/* @s escaped for a label value or HELP text: \\, \", \n; invalid UTF-8 bytes become U+FFFD. */
void om_put_escaped(FILE *f, const char *s);

struct om_opts {
	bool timestamp; /* stamp each sample with the recording's start (meta.start) */
	/*
	 * The agent's /metrics (docs/fleet.md): the values are live counters since the agent
	 * started (HELP says so), counted sites carry their copy family (memcpy, clear_user ...),
	 * each counted histogram has a byte-weighted twin (FAMILY_BYTES: bytes below each bound,
	 * so that a reader gets each range's mean length), and "# EOF" is left to the caller.
	 */
	bool live;
};

/* The byte-weighted twin of a counted site's histogram (om_opts.live). */
#define OM_FAMILY_BYTES "copyprof_copy_bytes_by_length_bytes"
#define OM_FAMILY_CALLS "copyprof_copy_length_bytes"

/* What went into the exposition, for the summary line. */
struct om_stats {
	uint64_t series; /* histograms (one per site) */
	uint64_t lines;	 /* sample lines */
};

/* Starts a metric family: # TYPE, # UNIT (when @unit), # HELP (escaped). */
void om_put_family(FILE *f, const char *name, const char *type, const char *unit, const char *help);

/*
 * Writes the whole exposition, ending in "# EOF" (not with om_opts.live). Returns 0, -EINVAL when --timestamp is asked
 * of a profile without meta.start (printed), or -EIO if @f failed.
 */
int export_openmetrics(const struct profile *p, FILE *f, const struct om_opts *o,
		       struct om_stats *st);

#endif
