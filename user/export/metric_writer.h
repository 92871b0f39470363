/* SPDX-License-Identifier: GPL-2.0 */
/* metric_writer.h: one exposition, two encodings: OpenMetrics text or Prometheus's protobuf */
#ifndef CP_METRIC_WRITER_H
#define CP_METRIC_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/hist.h"

struct mw_label {
	const char *name;
	const char *value; /* NULL or "": left out (OpenMetrics reads them as absent) */
};

enum mw_type { MW_GAUGE, MW_HISTOGRAM };

/*
 * A histogram of copyprof's buckets (CP_NBUCKETS): calls by length, or with @bytes each copy
 * weighing its bytes (the byte-weighted twin: no sum is known, the kernel counts no squares).
 * @sparse: text lists only the bounds around its non-empty ranges (om_sparse_bounds()), not
 * every bound from the first with a value (native histograms are sparse anyway).
 */
struct mw_hist {
	const struct hist_slot *buckets;
	bool bytes;
	bool sparse;
	bool coarse; /* text: the agent's bounds only (OM_LIVE_NR_EDGES), longer copies in +Inf */
};

/* What went into the exposition, for the summary line. */
struct mw_stats {
	uint64_t series; /* histograms */
	uint64_t lines;	 /* text samples (OpenMetrics), metrics (protobuf) */
};

struct metric_writer;

struct metric_writer_ops {
	/* A metric family starts: TYPE, UNIT (a suffix of the name, or NULL) and HELP. */
	void (*family)(struct metric_writer *w, const char *name, enum mw_type type,
		       const char *unit, const char *help);
	void (*gauge)(struct metric_writer *w, const struct mw_label *l, size_t n, double v);
	/* A gauge of an exact count (text writes it without a fraction). */
	void (*count)(struct metric_writer *w, const struct mw_label *l, size_t n, uint64_t v);
	void (*histogram)(struct metric_writer *w, const struct mw_label *l, size_t n,
			  const struct mw_hist *h);
	/* The end: "# EOF" (text) or the packed families; 0 or -EIO / -ENOMEM. */
	int (*finish)(struct metric_writer *w);
	void (*free)(struct metric_writer *w);
};

struct metric_writer {
	const struct metric_writer_ops *ops;
	FILE *f;
	struct mw_stats st;
	const char *family; /* the current family's name */
};

/*
 * OpenMetrics 1.0 text on @f (docs/export.md#openmetrics): classic histograms with export's
 * fixed bounds, buckets of value 0 below the first call left out (sums by le stay right:
 * a missing bucket of a series is one of value 0), or with mw_hist.sparse only those around
 * the non-empty ranges; @timestamp (or NULL) after every sample.
 */
struct metric_writer *mw_text_new(FILE *f, const char *timestamp);
/*
 * Prometheus's text format 0.0.4 on @f (what `Accept: text/plain;version=0.0.4` asks for): the
 * same samples as mw_text_new's, each family's HELP before its TYPE, no UNIT and no "# EOF".
 */
struct metric_writer *mw_text004_new(FILE *f);
/*
 * Prometheus's delimited protobuf exposition on @f: native histograms of schema 0 (bucket i
 * holds lengths 2^(i-1) to 2^i - 1, length 0 the zero bucket), gauges as gauges.
 */
struct metric_writer *mw_proto_new(FILE *f);

static inline void mw_family(struct metric_writer *w, const char *name, enum mw_type type,
			     const char *unit, const char *help)
{
	w->family = name;
	w->ops->family(w, name, type, unit, help);
}

static inline void mw_gauge(struct metric_writer *w, const struct mw_label *l, size_t n, double v)
{
	w->ops->gauge(w, l, n, v);
}

static inline void mw_count(struct metric_writer *w, const struct mw_label *l, size_t n, uint64_t v)
{
	w->ops->count(w, l, n, v);
}

static inline void mw_histogram(struct metric_writer *w, const struct mw_label *l, size_t n,
				const struct mw_hist *h)
{
	w->ops->histogram(w, l, n, h);
	w->st.series++;
}

/* @s escaped for a label value or HELP text: \\, \", \n; invalid UTF-8 bytes become U+FFFD. */
void om_put_escaped(FILE *f, const char *s);

/* finish() then free(); returns finish()'s result. */
int mw_close(struct metric_writer *w);

#endif
