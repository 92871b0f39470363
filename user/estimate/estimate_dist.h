/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_dist.h: a family's pointer distances: recorded or assumed, and stated so */
#ifndef CP_ESTIMATE_DIST_H
#define CP_ESTIMATE_DIST_H

#include <stdio.h>
#include <json-c/json.h>
#include "estimate_cost.h"
#include "estimate_input.h"
#include "estimate_result.h"

/* @in's distance classes of family @f summed over buckets into @fr (dist_recorded, dist_calls). */
void est_dist_fill(const struct est_input *in, enum copy_family f, struct est_family_result *fr);
/*
 * What the short-distance windows cost today's code (@today) on the calls recorded in them,
 * by @c's distance curves (est_costs_set_dist()), into @r's dist_modelled, dist_window_calls
 * and dist_window_pct; needs @r's bucket_calls and bucket_bytes.
 */
void est_dist_window(const struct est_costs *c, const struct est_policy *today,
		     struct est_family_result *r);
/* The family's "distance" object (docs/estimate.md#pointer-distance). */
json_object *est_dist_to_json(const struct est_family_result *fr);
/* The text's line after @indent: what was recorded, how many calls sit in the windows. */
void est_dist_print(FILE *f, const struct est_family_result *fr, const char *indent);
/* The commit paragraph's words for the distance condition, into @buf. */
const char *est_dist_words(const struct est_family_result *fr, char *buf, size_t len);

#endif
