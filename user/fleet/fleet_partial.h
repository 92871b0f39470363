/* SPDX-License-Identifier: GPL-2.0 */
/* fleet_partial.h: the sites of a fleet that stopped counting within the range, said per site */
#ifndef CP_FLEET_PARTIAL_H
#define CP_FLEET_PARTIAL_H

#include <stddef.h>
#include <json-c/json.h>
#include "fleet_query.h"

/* A site of one agent that was not counting at the end of the range. */
struct fleet_partial {
	char *where;	  /* its series' labels (but state) as JSON */
	char *state;	  /* "sampled" or "detached" (copyprof_site_state_since_seconds) */
	double since;	  /* when it left counting, seconds since the epoch */
	double counted_s; /* seconds of the range it was counting */
	double range_s;	  /* the range's length */
};

struct fleet_partials {
	struct fleet_partial *v;
	size_t nr;
};

/* Seconds of a PromQL duration (fleet_range_valid()), 0 if it is not one. */
double fleet_range_seconds(const char *s);
/*
 * The sites matched by @q's selector (and their agents' info, joined as the histograms are)
 * that were sampled or detached at the end of @q's range, each said with p_warn ("... counted
 * 2 s of the last 5m: its calls are partial"), into @out. An agent before this family has
 * none. 0, or -ENOMEM; a failed query is said and leaves @out empty (the estimate stands).
 */
int fleet_partial_fetch(const struct fleet_query *q, struct fleet_partials *out);
/* @p as a JSON array: [{ "site": {labels}, "state", "since", "counted_s", "range_s" }]. */
json_object *fleet_partials_to_json(const struct fleet_partials *p);
void fleet_partials_free(struct fleet_partials *p);

#endif
