// SPDX-License-Identifier: GPL-2.0
/* profile_order.c: a site's sampled runs of consecutive lengths, the order it made its calls in */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/jsonr.h"
#include "lib/log.h"
#include "profile_order.h"

int site_order_add(struct site_order *o, const uint64_t *len, uint32_t nr)
{
	struct order_run *r;
	uint32_t i;

	o->recorded = true;
	if (!nr || nr > CP_ORDER_LEN || o->nr >= SITE_ORDER_MAX_RUNS)
		return 0;
	/* A "length" from 2^40 is no length (a pointer read as one: len=arg0): not a run. */
	for (i = 0; i < nr; i++)
		if (len[i] >> CP_MAX_LOG2)
			return 0;
	r = realloc(o->runs, (o->nr + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	o->runs = r;
	memset(&r[o->nr], 0, sizeof(r[o->nr]));
	memcpy(r[o->nr].len, len, nr * sizeof(*len));
	r[o->nr].nr = nr;
	o->nr++;
	return 0;
}

int site_order_sum(struct site_order *o, const struct site_order *a)
{
	uint32_t i;

	o->recorded = true;
	for (i = 0; i < a->nr; i++)
		if (site_order_add(o, a->runs[i].len, a->runs[i].nr))
			return -ENOMEM;
	return 0;
}

void site_order_clear(struct site_order *o)
{
	o->nr = 0;
	o->recorded = false;
}

void site_order_free(struct site_order *o)
{
	free(o->runs);
	*o = (struct site_order){ 0 };
}

json_object *site_order_to_json(const struct site_order *o)
{
	json_object *a = json_object_new_array();
	uint32_t i, k;

	for (i = 0; i < o->nr; i++) {
		json_object *run = json_object_new_array();

		for (k = 0; k < o->runs[i].nr; k++)
			json_object_array_add(run, json_object_new_uint64(o->runs[i].len[k]));
		json_object_array_add(a, run);
	}
	return a;
}

/* Row @i of "orders" into @len (up to CP_ORDER_LEN unsigned lengths); their number, or 0. */
static uint32_t run_from_json(json_object *run, uint64_t *len)
{
	size_t k, n;

	if (!json_object_is_type(run, json_type_array))
		return 0;
	n = json_object_array_length(run);
	if (!n || n > CP_ORDER_LEN)
		return 0;
	for (k = 0; k < n; k++) {
		json_object *v = json_object_array_get_idx(run, k);

		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
			return 0;
		len[k] = json_object_get_uint64(v);
		if (len[k] >= (1ULL << CP_MAX_LOG2))
			return 0;
	}
	return (uint32_t)n;
}

int site_order_from_json(json_object *a, struct site_order *o, const char *name, uint32_t site)
{
	uint64_t len[CP_ORDER_LEN];
	size_t i, n;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array)) {
		p_err("%s: site %u: \"orders\" must be an array of runs (arrays of lengths)", name,
		      site);
		return -EINVAL;
	}
	o->recorded = true;
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		uint32_t nr = run_from_json(json_object_array_get_idx(a, i), len);

		if (!nr) {
			p_err("%s: site %u: orders run %zu needs 1 .. %d unsigned integer lengths "
			      "(below 2^40)",
			      name, site, i, CP_ORDER_LEN);
			return -EINVAL;
		}
		if (site_order_add(o, len, nr))
			return -ENOMEM;
	}
	return 0;
}
