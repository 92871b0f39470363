/* SPDX-License-Identifier: GPL-2.0 */
/* fleet_series.h: the fleet's histogram series from Prometheus, per site, checked before use */
#ifndef CP_FLEET_SERIES_H
#define CP_FLEET_SERIES_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "export/export_openmetrics.h"
#include "lib/counter_map.h"
#include "profile/profile.h"

/* The labels a site is kept apart by (host is summed away), in this order. */
#define FLEET_SITE_LABELS "cpu_model,kernel,target,symbol,offset,mechanism,label,family"
#define FLEET_NR_LABELS 8
enum {
	FLEET_CPU_MODEL,
	FLEET_KERNEL,
	FLEET_TARGET,
	FLEET_SYMBOL,
	FLEET_OFFSET,
	FLEET_MECHANISM,
	FLEET_LABEL,
	FLEET_FAMILY
};

#define FLEET_NR_RANGES (OM_NR_EDGES + 1) /* classic: below each bound, and +Inf */
/* Native buckets (schema 0): [0] length 0, [i] lengths in [2^(i-1), 2^i), up to 2^63. */
#define FLEET_NR_NATIVE 65

/* A value no profile count may reach: 2^63 (its bytes and calls are unsigned 64-bit sums). */
#define FLEET_MAX_VALUE 9223372036854775808.0

struct fleet_site {
	char *labels[FLEET_NR_LABELS]; /* NULL: absent */
	char *where;		       /* the calls series' labels as JSON, for messages */
	/* Classic: cumulative, below each bound then +Inf; bit k of has_*: range k was there. */
	double calls[FLEET_NR_RANGES], bytes[FLEET_NR_RANGES];
	uint64_t has_calls, has_bytes;
	/* Native: per bucket, not cumulative. */
	double ncalls[FLEET_NR_NATIVE], nbytes[FLEET_NR_NATIVE];
	bool native_calls, native_bytes;
};

struct fleet_series {
	struct fleet_site *v;
	size_t nr, cap;
	struct counter_map index; /* the labels, joined -> index in v + 1 */
};

enum fleet_kind { FLEET_CALLS, FLEET_BYTES };

/*
 * Adds a vector answer (prom_answer.h) of classic _bucket series, summed by FLEET_SITE_LABELS
 * and le. Each value must be a number, finite, >= 0 and < FLEET_MAX_VALUE, each le one of
 * export's bounds, each series there once. A refusal names the series and says what is
 * wrong: -EINVAL (printed), -ENOMEM.
 */
int fleet_series_add_classic(struct fleet_series *fs, json_object *result, enum fleet_kind k);
/*
 * A native histogram object of the query API ({"count", "sum", "buckets"}) as counts per
 * native bucket of schema 0: NULL, or what is wrong with it.
 */
const char *fleet_native_parse(json_object *h, double counts[FLEET_NR_NATIVE]);
/* Adds one series' @counts to its site (@metric's labels), summing the hosts. */
int fleet_series_add_native(struct fleet_series *fs, json_object *metric, enum fleet_kind k,
			    const double counts[FLEET_NR_NATIVE]);
/*
 * Every site whole and consistent: each histogram ends in +Inf and its buckets do not
 * decrease, every calls histogram has its bytes twin and the other way round, and each
 * range's bytes fit its calls' lengths. A bound left out is no fault: it takes the value of
 * the nearest one listed below it, 0 below the first (docs/fleet.md#gaps); where calls rise
 * across bounds neither twin lists, a warning says so once. -EINVAL with the site and the
 * reason printed.
 */
int fleet_series_check(const struct fleet_series *fs);
/* The site's calls and bytes into @ps's buckets: each range's at its mean length. */
void fleet_site_fill(const struct fleet_site *s, struct profile_site *ps);
void fleet_series_free(struct fleet_series *fs);

#endif
