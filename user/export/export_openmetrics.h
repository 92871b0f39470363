/* SPDX-License-Identifier: GPL-2.0 */
/* export_openmetrics.h: a profile as OpenMetrics 1.0 text histograms (docs/export.md) */
#ifndef CP_EXPORT_OPENMETRICS_H
#define CP_EXPORT_OPENMETRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/hist.h"
#include "metric_writer.h"
#include "om_bounds.h"
#include "profile/profile.h"

struct om_opts {
	bool timestamp; /* stamp each sample with the recording's start (meta.start) */
	/*
	 * The agent's /metrics (docs/fleet.md): the values are live counters since the agent
	 * started (HELP says so), each counted histogram has a byte-weighted twin
	 * (OM_FAMILY_BYTES: bytes below each bound, so that a reader gets each range's mean
	 * length), and the site id, kernel and host are left to copyprof_agent_info.
	 */
	bool live;
	/*
	 * Histograms list only the bounds around their non-empty ranges (om_sparse_bounds(),
	 * export's default, docs/export.md#buckets): exact per series, but a sum by (le) over
	 * series of other bounds is not. Otherwise every bound from the first with a value (export
	 * --buckets dense, and the agent, whose series Prometheus sums by le).
	 */
	bool sparse;
};

/* The byte-weighted twin of a counted site's histogram (om_opts.live). */
#define OM_FAMILY_BYTES "copyprof_copy_bytes_by_length_bytes"
#define OM_FAMILY_CALLS "copyprof_copy_length_bytes"

/* What went into the exposition, for the summary line. */
struct om_stats {
	uint64_t series; /* histograms (one per site) */
	uint64_t lines;	 /* sample lines */
};

/* Room for a site's labels (om_live_site_labels) and a caller's few more. */
#define OM_MAX_SITE_LABELS 16
/*
 * The labels of the agent's series of site @s of @p (what the site is, and cpu_model: those
 * of its histograms) into @l, with buffers @id[16] and @off[24]; returns how many. The agent's
 * other families of one site (copyprof_site_state_since_seconds) carry the same, so a reader
 * matches them to the histograms.
 */
size_t om_live_site_labels(const struct profile *p, const struct profile_site *s,
			   struct mw_label *l, char *id, char *off);

/*
 * The profile's families into @w: the calls histograms (and with o->live their byte-weighted
 * twins), the sampled sites' histograms and sample counts, the recorded durations. The
 * caller adds its own families and closes @w.
 */
void export_metrics_put(struct metric_writer *w, const struct profile *p, const struct om_opts *o);

/*
 * The whole exposition as OpenMetrics text, ending in "# EOF". Returns 0, -EINVAL when
 * --timestamp is asked of a profile without meta.start (printed), or -EIO if @f failed.
 */
int export_openmetrics(const struct profile *p, FILE *f, const struct om_opts *o,
		       struct om_stats *st);

#endif
