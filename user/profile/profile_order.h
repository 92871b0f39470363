/* SPDX-License-Identifier: GPL-2.0 */
/* profile_order.h: a site's sampled runs of consecutive lengths, the order it made its calls in */
#ifndef CP_PROFILE_ORDER_H
#define CP_PROFILE_ORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "lib/hist.h" /* cp_shared.h with the types it needs */

/* The most runs a site keeps (a merge of several profiles keeps the first ones). */
#define SITE_ORDER_MAX_RUNS (4 * CP_ORDER_RUNS)

/* One run: up to CP_ORDER_LEN lengths, in the order the site copied them on one CPU. */
struct order_run {
	uint64_t len[CP_ORDER_LEN];
	uint32_t nr;
};

/*
 * The "orders" list of docs/profile-format.md#orders. @recorded: the recorder sampled runs
 * (a profile without the list: no order known, its lengths replayed as independent draws).
 */
struct site_order {
	struct order_run *runs;
	uint32_t nr;
	bool recorded;
};

/* Appends a run of @nr lengths (@nr 1..CP_ORDER_LEN; beyond SITE_ORDER_MAX_RUNS it is left
 * out); marks @o recorded. 0 or -ENOMEM. */
int site_order_add(struct site_order *o, const uint64_t *len, uint32_t nr);
/* @o += @a's runs (merge: appended, the first SITE_ORDER_MAX_RUNS kept). 0 or -ENOMEM. */
int site_order_sum(struct site_order *o, const struct site_order *a);
void site_order_clear(struct site_order *o);
void site_order_free(struct site_order *o);
/* The runs as JSON: an array of arrays of lengths. */
json_object *site_order_to_json(const struct site_order *o);
/*
 * @a's runs into @o (recorded); @a NULL leaves @o not recorded. 0, -EINVAL after printing why
 * (@name and @site say where), or -ENOMEM.
 */
int site_order_from_json(json_object *a, struct site_order *o, const char *name, uint32_t site);

#endif
