// SPDX-License-Identifier: GPL-2.0
/* profile_dist.c: a site's pointer distance classes per length bucket, kept sparse, as JSON */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/jsonr.h"
#include "lib/log.h"
#include "profile_dist.h"

static const char *const names[CP_NR_DIST] = {
	[CP_DIST_ZERO] = "zero",
	[CP_DIST_AHEAD] = "ahead_1_63",
	[CP_DIST_BEHIND] = "behind_1_63",
	[CP_DIST_OTHER] = "other",
	[CP_DIST_ALIGNED_64] = "aligned_64",
};

const char *dist_class_name(int c)
{
	return c >= 0 && c < CP_NR_DIST ? names[c] : "?";
}

int site_dist_add(struct site_dist *d, uint32_t bucket, const uint64_t *c)
{
	struct dist_count *v;
	uint32_t i;
	int k;
	bool any = false;

	d->recorded = true;
	for (k = 0; k < CP_NR_DIST; k++)
		any |= c[k] != 0;
	if (!any)
		return 0;
	for (i = 0; i < d->nr && d->v[i].bucket < bucket; i++)
		;
	if (i == d->nr || d->v[i].bucket != bucket) {
		v = realloc(d->v, (d->nr + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		d->v = v;
		memmove(&v[i + 1], &v[i], (d->nr - i) * sizeof(*v));
		memset(&v[i], 0, sizeof(v[i]));
		v[i].bucket = bucket;
		d->nr++;
	}
	for (k = 0; k < CP_NR_DIST; k++)
		d->v[i].c[k] += c[k];
	return 0;
}

uint64_t site_dist_class_calls(const struct site_dist *d, int c)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; c >= 0 && c < CP_NR_DIST && i < d->nr; i++)
		n += d->v[i].c[c];
	return n;
}

void site_dist_clear(struct site_dist *d)
{
	d->nr = 0;
	d->recorded = false;
}

void site_dist_free(struct site_dist *d)
{
	free(d->v);
	*d = (struct site_dist){ 0 };
}

json_object *site_dist_to_json(const struct site_dist *d)
{
	json_object *a = json_object_new_array();
	uint32_t i;
	int k;

	for (i = 0; i < d->nr; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "lo",
				       json_object_new_uint64(hist_bucket_lo(d->v[i].bucket)));
		json_object_object_add(o, "hi",
				       json_object_new_uint64(hist_bucket_hi(d->v[i].bucket)));
		for (k = 0; k < CP_NR_DIST; k++)
			json_object_object_add(o, names[k], json_object_new_uint64(d->v[i].c[k]));
		json_object_array_add(a, o);
	}
	return a;
}

int site_dist_from_json(json_object *a, struct site_dist *d, const char *name, uint32_t site)
{
	size_t i, n;
	int k, b;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array)) {
		p_err("%s: site %u: \"distance\" must be an array of bucket rows", name, site);
		return -EINVAL;
	}
	d->recorded = true;
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(a, i);
		uint64_t lo, hi, c[CP_NR_DIST];
		int err = jsonr_u64(row, "hi", &hi);

		if (err == -ERANGE) { /* the overflow bucket's hi, 2^64 - 1 */
			hi = UINT64_MAX;
			err = 0;
		}
		for (k = 0; !err && k < CP_NR_DIST; k++) {
			err = jsonr_u64(row, names[k], &c[k]);
			/* Rows written before aligned_64 lack it: their other holds those calls. */
			if (err == -ENOENT && k == CP_DIST_ALIGNED_64) {
				c[k] = 0;
				err = 0;
			}
		}
		b = err || jsonr_u64(row, "lo", &lo) ? -1 : hist_bucket_find(lo, hi);
		if (b < 0) {
			p_err("%s: site %u: distance row %zu needs a bucket's lo and hi and "
			      "unsigned "
			      "integers zero, ahead_1_63, behind_1_63, other (and aligned_64)",
			      name, site, i);
			return -EINVAL;
		}
		if (site_dist_add(d, (uint32_t)b, c))
			return -ENOMEM;
	}
	return 0;
}
