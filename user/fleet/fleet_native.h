/* SPDX-License-Identifier: GPL-2.0 */
/* fleet_native.h: the exact increase of native histograms over a range, worked out per series */
#ifndef CP_FLEET_NATIVE_H
#define CP_FLEET_NATIVE_H

#include <json-c/json.h>
#include "fleet_query.h"
#include "fleet_selector.h"
#include "fleet_series.h"

/*
 * Prometheus 2.42 has no subtraction of native histograms (M - M offset R comes back as a
 * float 0), so the exact increase that classic buckets get in PromQL is worked out here, per
 * series: now less R ago for a series that was there and did not reset, now for one that
 * started within the range (an agent started since: from zero), and Prometheus's increase()
 * (extrapolated, not exact) for one that reset or is gone. The four answers are vectors
 * (prom_answer.h) of M now, M offset R, resets(M[R]) > 0 and increase(M[R]) (NULL: not
 * asked, none needed); each series' increase is added to its site in @fs, with the CPU model
 * and kernel of its agent from @join (FLEET_INFO_EXPR's answer; a series without one is left
 * out, as PromQL's join would). -EINVAL with the series and the fault printed, -ENOMEM.
 */
int fleet_native_combine(struct fleet_series *fs, enum fleet_kind kind, json_object *now,
			 json_object *then, json_object *resets, json_object *increase,
			 json_object *join);
/* Whether combining needs increase(M[R]): a series reset, or is gone since R ago. */
bool fleet_native_needs_increase(json_object *now, json_object *then, json_object *resets);
/*
 * Asks @q's Prometheus for the native histogram @m matched by @sel (M now, offset, resets,
 * increase when needed, and the agents' info) and combines them into @fs; *@found: how many
 * series there were.
 */
int fleet_native_fetch(struct fleet_series *fs, const struct fleet_query *q,
		       const struct fleet_selector *sel, const char *m, enum fleet_kind kind,
		       size_t *found);

#endif
