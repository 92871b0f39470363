// SPDX-License-Identifier: GPL-2.0
/* profile_exact.c: a site's calls at exact lengths (from 64 B), beside its length buckets */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/hist.h"
#include "lib/jsonr.h"
#include "lib/log.h"
#include "profile_exact.h"

int site_exact_add(struct site_exact *e, uint64_t len, uint64_t calls)
{
	struct exact_count *v;
	uint32_t i;

	e->recorded = true;
	/* Past the buckets' range (2^CP_MAX_LOG2) a length is not kept exactly, as in hist.bpf.c. */
	if (!calls || len < CP_EXACT_LIMIT || len >= (1ULL << CP_MAX_LOG2))
		return 0;
	for (i = 0; i < e->nr && e->v[i].len < len; i++)
		;
	if (i == e->nr || e->v[i].len != len) {
		v = realloc(e->v, (e->nr + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		e->v = v;
		memmove(&v[i + 1], &v[i], (e->nr - i) * sizeof(*v));
		v[i] = (struct exact_count){ .len = len };
		e->nr++;
	}
	e->v[i].calls += calls;
	return 0;
}

int site_exact_sum(struct site_exact *e, const struct site_exact *a)
{
	uint32_t i;

	e->recorded = true;
	for (i = 0; i < a->nr; i++)
		if (site_exact_add(e, a->v[i].len, a->v[i].calls))
			return -ENOMEM;
	return 0;
}

void site_exact_clear(struct site_exact *e)
{
	e->nr = 0;
	e->recorded = false;
}

void site_exact_free(struct site_exact *e)
{
	free(e->v);
	*e = (struct site_exact){ 0 };
}

json_object *site_exact_to_json(const struct site_exact *e)
{
	json_object *a = json_object_new_array();
	uint32_t i;

	for (i = 0; i < e->nr; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "len", json_object_new_uint64(e->v[i].len));
		json_object_object_add(o, "calls", json_object_new_uint64(e->v[i].calls));
		json_object_array_add(a, o);
	}
	return a;
}

int site_exact_from_json(json_object *a, struct site_exact *e, const char *name, uint32_t site)
{
	size_t i, n;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array)) {
		p_err("%s: site %u: \"exact\" must be an array of {len, calls}", name, site);
		return -EINVAL;
	}
	e->recorded = true;
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(a, i);
		uint64_t len, calls;

		if (jsonr_u64(row, "len", &len) || jsonr_u64(row, "calls", &calls) ||
		    len < CP_EXACT_LIMIT || len >= (1ULL << CP_MAX_LOG2)) {
			p_err("%s: site %u: exact row %zu needs unsigned integers len (64 .. 2^40 "
			      "- 1) "
			      "and calls",
			      name, site, i);
			return -EINVAL;
		}
		if (site_exact_add(e, len, calls))
			return -ENOMEM;
	}
	return 0;
}
