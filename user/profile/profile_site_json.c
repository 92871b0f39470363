// SPDX-License-Identifier: GPL-2.0
/* profile_site_json.c: one site of a profile read from its JSON object and checked */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/jsonr.h"
#include "lib/log.h"
#include "profile_family.h"
#include "profile_mux.h"
#include "profile_site_json.h"

/* @a += @b, refused by name if it passes 2^64 - 1: a wrapped count would be silently wrong. */
static int add_u64(uint64_t *a, uint64_t b, const char *name, uint32_t id, const char *field)
{
	if (__builtin_add_overflow(*a, b, a)) {
		p_err("%s: site %u: the sum of its \"%s\" passes 2^64 - 1: refusing a count that "
		      "would wrap",
		      name, id, field);
		return -EOVERFLOW;
	}
	return 0;
}

static int align_from_json(json_object *o, const char *key, uint64_t *counts)
{
	json_object *a;
	int i;

	if (!json_object_object_get_ex(o, key, &a))
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != CP_ALIGN_SLOTS)
		return -EINVAL;
	for (i = 0; i < CP_ALIGN_SLOTS; i++) {
		json_object *v = json_object_array_get_idx(a, i);

		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
			return -EINVAL;
		counts[i] = json_object_get_uint64(v);
	}
	return 1;
}

static int buckets_from_json(json_object *arr, struct sparse_hist *slots, uint32_t id,
			     const char *name)
{
	size_t i, n = json_object_array_length(arr);
	struct hist_bucket *e;

	if (sparse_hist_reserve(slots, (uint32_t)(n < CP_NBUCKETS ? n : CP_NBUCKETS)))
		return -ENOMEM;

	for (i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(arr, i);
		uint64_t lo, hi, count, bytes = 0, min, max, sum_count, sum_bytes;
		int b, err;

		/* The last bucket's "hi" is 2^64 - 1, which jsonr_u64() refuses for counts. */
		err = jsonr_u64(row, "hi", &hi);
		if (err == -ERANGE) {
			hi = UINT64_MAX;
			err = 0;
		}
		if (err || jsonr_u64(row, "lo", &lo) || jsonr_u64(row, "count", &count)) {
			p_err("%s: site %u bucket %zu needs unsigned integers lo, hi and count "
			      "below 2^64 - 1",
			      name, id, i);
			return -EINVAL;
		}
		b = hist_bucket_find(lo, hi);
		if (b < 0) {
			p_err("%s: site %u: [%llu, %llu) is not a copyprof bucket (see "
			      "docs/profile-format.md)",
			      name, id, (unsigned long long)lo, (unsigned long long)hi);
			return -EINVAL;
		}
		err = jsonr_u64(row, "bytes", &bytes);
		if (err && err != -ENOENT) {
			p_err("%s: site %u: bucket [%llu, %llu) needs \"bytes\" as an unsigned "
			      "integer below 2^64 - 1",
			      name, id, (unsigned long long)lo, (unsigned long long)hi);
			return -EINVAL;
		}
		/* Every length in the bucket is in [lo, hi - 1], and so is the mean of its calls. */
		if (__builtin_mul_overflow(count, lo, &min)) {
			p_err("%s: site %u: bucket [%llu, %llu): %llu calls of at least %llu bytes "
			      "pass 2^64 - 1 bytes",
			      name, id, (unsigned long long)lo, (unsigned long long)hi,
			      (unsigned long long)count, (unsigned long long)lo);
			return -EOVERFLOW;
		}
		if (__builtin_mul_overflow(count, hi - 1, &max))
			max = UINT64_MAX;
		if (err == -ENOENT) {
			bytes = min; /* older writers: the lower edge is a safe bound */
		} else if (bytes < min || bytes > max) {
			p_err("%s: site %u: bucket [%llu, %llu) holds %llu calls, so its \"bytes\" "
			      "must be from %llu to %llu, not %llu",
			      name, id, (unsigned long long)lo, (unsigned long long)hi,
			      (unsigned long long)count, (unsigned long long)min,
			      (unsigned long long)max, (unsigned long long)bytes);
			return -EINVAL;
		}
		/* Two rows of one bucket add up. */
		e = sparse_hist_slot(slots, (uint32_t)b);
		if (!e)
			return -ENOMEM;
		sum_count = e->count;
		sum_bytes = e->bytes;
		if (add_u64(&sum_count, count, name, id, "count") ||
		    add_u64(&sum_bytes, bytes, name, id, "bytes"))
			return -EOVERFLOW;
		e->count = sum_count;
		e->bytes = sum_bytes;
	}
	return 0;
}

/* An optional "offset" (0 if absent); -1 or 1.5 would be shown as +0x0: refused instead. */
static int offset_from_json(json_object *o, uint64_t *off, const char *name, uint32_t id,
			    const char *whose)
{
	int err = jsonr_u64(o, "offset", off);

	if (err == -ENOENT)
		return 0;
	if (err)
		p_err("%s: site %u%s: \"offset\" must be an integer from 0 to 2^64 - 2 (bytes into "
		      "its symbol)",
		      name, id, whose);
	return err ? -EINVAL : 0;
}

/* "address" is a hex string: 64-bit kernel addresses do not fit JSON's doubles. */
static void address_from_json(json_object *o, uint64_t *addr)
{
	char *hex = jsonr_str(o, "address"), *end = NULL;

	if (hex)
		*addr = strtoull(hex, &end, 16);
	if (!hex || *end)
		*addr = 0;
	free(hex);
}

/* The optional "callers" array of an entry site; a caller's buckets are checked as the site's. */
static int callers_from_json(json_object *o, struct profile_site *s, const char *name)
{
	json_object *arr, *c, *buckets;
	const struct hist_bucket *e;
	size_t i, n;

	s->caller_misses = jsonr_u64_or(o, "caller_misses", 0);
	if (!json_object_object_get_ex(o, "callers", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return 0;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		struct profile_caller *d;

		c = json_object_array_get_idx(arr, i);
		if (!json_object_object_get_ex(c, "buckets", &buckets) ||
		    !json_object_is_type(buckets, json_type_array)) {
			p_err("%s: site %u caller %zu has no \"buckets\" array", name, s->id, i);
			return -EINVAL;
		}
		d = profile_site_add_caller(s);
		if (!d)
			return -ENOMEM;
		d->target = jsonr_str(c, "target");
		d->symbol = jsonr_str(c, "symbol");
		if (offset_from_json(c, &d->offset, name, s->id, "'s caller"))
			return -EINVAL;
		address_from_json(c, &d->address);
		if (buckets_from_json(buckets, &d->buckets, s->id, name))
			return -EINVAL;
		sparse_hist_for_each (&d->buckets, e)
			if (add_u64(&d->calls, e->count, name, s->id, "callers' count") ||
			    add_u64(&d->bytes, e->bytes, name, s->id, "callers' bytes"))
				return -EOVERFLOW;
	}
	return 0;
}

/* The optional "source" object; a malformed one reads as absent (jsonr.h's leniency). */
static struct source_pos *source_from_json(json_object *o)
{
	struct source_pos *src;
	json_object *v, *inl;
	size_t i, n;

	if (!json_object_object_get_ex(o, "source", &v) ||
	    !json_object_is_type(v, json_type_object))
		return NULL;
	src = calloc(1, sizeof(*src));
	if (!src)
		return NULL;
	src->file = jsonr_str(v, "file");
	src->line = (uint32_t)jsonr_u64_or(v, "line", 0);
	if (!json_object_object_get_ex(v, "inlined", &inl) ||
	    !json_object_is_type(inl, json_type_array))
		return src;
	n = json_object_array_length(inl);
	src->inlined = calloc(n ?: 1, sizeof(*src->inlined));
	if (!src->inlined) {
		source_pos_free(src);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		json_object *f = json_object_array_get_idx(inl, i);
		struct source_inline *d = &src->inlined[src->nr_inlined];

		if (!json_object_is_type(f, json_type_object))
			continue;
		d->function = jsonr_str(f, "function");
		d->file = jsonr_str(f, "file");
		d->line = (uint32_t)jsonr_u64_or(f, "line", 0);
		src->nr_inlined++;
	}
	return src;
}

int profile_site_from_json(json_object *o, struct profile *p, const char *name, uint64_t *group,
			   bool *has_group)
{
	struct profile_site *s = profile_add_site(p);
	uint64_t v, dst[CP_ALIGN_SLOTS] = { 0 }, src[CP_ALIGN_SLOTS] = { 0 };
	const struct hist_bucket *e;
	json_object *buckets, *dist, *exact, *fp, *cgroups, *orders;
	char *family;
	int a, b;

	if (!s)
		return -ENOMEM;
	if (!jsonr_u64(o, "id", &v))
		s->id = (uint32_t)v;
	s->target = jsonr_str(o, "target");
	s->symbol = jsonr_str(o, "symbol");
	s->mechanism = jsonr_str(o, "mechanism");
	s->len_arg = jsonr_str(o, "len_arg");
	if (offset_from_json(o, &s->offset, name, s->id, ""))
		return -EINVAL;
	if (!json_object_object_get_ex(o, "buckets", &buckets) ||
	    !json_object_is_type(buckets, json_type_array)) {
		p_err("%s: site %u has no \"buckets\" array", name, s->id);
		return -EINVAL;
	}
	if (buckets_from_json(buckets, &s->buckets, s->id, name))
		return -EINVAL;
	s->calls = s->bytes = 0;
	sparse_hist_for_each (&s->buckets, e)
		if (add_u64(&s->calls, e->count, name, s->id, "count") ||
		    add_u64(&s->bytes, e->bytes, name, s->id, "bytes"))
			return -EOVERFLOW;
	/* A writer may count calls it could not bucket (e.g. samples without a length). */
	if (!jsonr_u64(o, "calls", &v) && v > s->calls)
		s->calls = v;
	if (!jsonr_u64(o, "bytes", &v) && v > s->bytes)
		s->bytes = v;
	a = align_from_json(o, "dst_align", dst);
	b = align_from_json(o, "src_align", src);
	if (a < 0 || b < 0) {
		p_err("%s: site %u: dst_align/src_align must be arrays of %d unsigned integer "
		      "counts",
		      name, s->id, CP_ALIGN_SLOTS);
		return -EINVAL;
	}
	if ((a > 0 || b > 0) && site_align_set_dense(&s->align, dst, src))
		return -ENOMEM;
	if (site_dist_from_json(json_object_object_get_ex(o, "distance", &dist) ? dist : NULL,
				&s->dist, name, s->id) ||
	    site_exact_from_json(json_object_object_get_ex(o, "exact", &exact) ? exact : NULL,
				 &s->exact, name, s->id) ||
	    site_footprint_from_json(json_object_object_get_ex(o, "footprint", &fp) ? fp : NULL,
				     &s->footprint, name, s->id) ||
	    site_cgroups_from_json(json_object_object_get_ex(o, "cgroups", &cgroups) ? cgroups
										     : NULL,
				   &s->cgroups, name, s->id) ||
	    site_order_from_json(json_object_object_get_ex(o, "orders", &orders) ? orders : NULL,
				 &s->order, name, s->id))
		return -EINVAL;
	s->sample = sample_site_from_json(o);
	family = jsonr_str(o, "family");
	/* CF_NONE (written before sites had a family, or one this copyprof does not know):
	 * inferred when the whole profile is read, its arguments renumbered (profile_json_read.c) */
	s->family = copy_family_parse(family);
	free(family);
	s->mux = site_mux_from_json(o);
	s->source = source_from_json(o);
	s->label = jsonr_str(o, "label");
	s->build_id = jsonr_str(o, "build_id");
	address_from_json(o, &s->address);
	if (callers_from_json(o, s, name))
		return -EINVAL;
	*has_group = !jsonr_u64(o, "group", group);
	return 0;
}
