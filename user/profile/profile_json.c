// SPDX-License-Identifier: GPL-2.0
/* profile_json.c: the profile's JSON form (docs/profile-format.md), written and read with json-c */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/log.h"
#include "profile.h"
#include "profile_args.h"
#include "profile_mux.h"

static json_object *meta_to_json(const struct host_meta *m, const struct sample_meta *sample,
				 const struct profile_dispatch *dispatch)
{
	json_object *o = json_object_new_object(), *flags = json_object_new_array();
	size_t i;

	jsonw_put_str(o, "tool_version", m->tool_version);
	jsonw_put_str(o, "kernel", m->kernel);
	jsonw_put_str(o, "cpu_model", m->cpu_model);
	for (i = 0; i < m->nr_cpu_flags; i++)
		json_object_array_add(flags, json_object_new_string(m->cpu_flags[i]));
	json_object_object_add(o, "cpu_flags", flags);
	jsonw_put_str(o, "hostname", m->hostname);
	jsonw_put_str(o, "start", m->start);
	json_object_object_add(o, "duration_s", json_object_new_double(m->duration_s));
	jsonw_put_str(o, "command", m->command);
	jsonw_put_str(o, "ended_by", m->ended_by);
	profile_args_to_json(o);
	sample_meta_to_json(sample, o);
	if (dispatch)
		json_object_object_add(o, "dispatch", profile_dispatch_to_json(dispatch));
	return o;
}

static json_object *align_to_json(const uint64_t *counts)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < CP_ALIGN_SLOTS; i++)
		json_object_array_add(a, json_object_new_uint64(counts[i]));
	return a;
}

static json_object *source_to_json(const struct source_pos *src)
{
	json_object *o = json_object_new_object(), *inl = json_object_new_array();
	size_t i;

	jsonw_put_str(o, "file", src->file);
	json_object_object_add(o, "line", json_object_new_uint64(src->line));
	for (i = 0; i < src->nr_inlined; i++) {
		json_object *f = json_object_new_object();

		jsonw_put_str(f, "function", src->inlined[i].function);
		jsonw_put_str(f, "file", src->inlined[i].file);
		json_object_object_add(f, "line", json_object_new_uint64(src->inlined[i].line));
		json_object_array_add(inl, f);
	}
	json_object_object_add(o, "inlined", inl);
	return o;
}

/* Non-empty buckets only, ascending: {lo, hi, count, bytes}. */
static json_object *buckets_to_json(const struct hist_slot *slots)
{
	json_object *buckets = json_object_new_array();
	uint32_t b;

	for (b = 0; b < CP_NBUCKETS; b++) {
		json_object *row;

		if (!slots[b].count)
			continue;
		row = json_object_new_object();
		json_object_object_add(row, "lo", json_object_new_uint64(hist_bucket_lo(b)));
		json_object_object_add(row, "hi", json_object_new_uint64(hist_bucket_hi(b)));
		json_object_object_add(row, "count", json_object_new_uint64(slots[b].count));
		json_object_object_add(row, "bytes", json_object_new_uint64(slots[b].bytes));
		json_object_array_add(buckets, row);
	}
	return buckets;
}

static json_object *callers_to_json(const struct profile_site *s)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < s->nr_callers; i++) {
		const struct profile_caller *c = &s->callers[i];
		json_object *o = json_object_new_object();

		jsonw_put_str(o, "target", c->target);
		jsonw_put_str(o, "symbol", c->symbol);
		json_object_object_add(o, "offset", json_object_new_uint64(c->offset));
		if (c->address)
			json_object_object_add(o, "address", jsonw_new_hex(c->address));
		json_object_object_add(o, "calls", json_object_new_uint64(c->calls));
		json_object_object_add(o, "bytes", json_object_new_uint64(c->bytes));
		json_object_object_add(o, "buckets", buckets_to_json(c->buckets));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *site_to_json(const struct profile_site *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(s->id));
	jsonw_put_str(o, "target", s->target);
	jsonw_put_str(o, "symbol", s->symbol);
	json_object_object_add(o, "offset", json_object_new_uint64(s->offset));
	jsonw_put_str(o, "mechanism", s->mechanism);
	jsonw_put_str(o, "len_arg", s->len_arg);
	json_object_object_add(o, "calls", json_object_new_uint64(s->calls));
	json_object_object_add(o, "bytes", json_object_new_uint64(s->bytes));
	json_object_object_add(o, "buckets", buckets_to_json(s->buckets));
	if (s->has_align) {
		json_object_object_add(o, "dst_align", align_to_json(s->dst_align));
		json_object_object_add(o, "src_align", align_to_json(s->src_align));
	}
	sample_site_to_json(s->sample, o);
	site_mux_to_json(s->mux, o);
	if (s->source)
		json_object_object_add(o, "source", source_to_json(s->source));
	if (s->label)
		jsonw_put_str(o, "label", s->label);
	if (s->build_id)
		jsonw_put_str(o, "build_id", s->build_id);
	if (s->address)
		json_object_object_add(o, "address", jsonw_new_hex(s->address));
	if (s->nr_callers || s->caller_misses) {
		json_object_object_add(o, "callers", callers_to_json(s));
		json_object_object_add(o, "caller_misses",
				       json_object_new_uint64(s->caller_misses));
	}
	return o;
}

static json_object *strv_to_json(char *const *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

static json_object *group_to_json(const struct profile_group *g, size_t id)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_uint64(id));
	jsonw_put_str(o, "kernel", g->kernel);
	jsonw_put_str(o, "cpu_model", g->cpu_model);
	json_object_object_add(o, "cpu_flags", strv_to_json(g->cpu_flags, g->nr_cpu_flags));
	json_object_object_add(o, "hosts", strv_to_json(g->hosts, g->nr_hosts));
	json_object_object_add(o, "profiles", json_object_new_uint64(g->profiles));
	json_object_object_add(o, "duration_s", json_object_new_double(g->duration_s));
	if (g->total_samples) {
		json_object_object_add(o, "sample_hz", json_object_new_uint64(g->sample_hz));
		json_object_object_add(o, "total_samples",
				       json_object_new_uint64(g->total_samples));
		json_object_object_add(o, "idle_samples", json_object_new_uint64(g->idle_samples));
	}
	return o;
}

json_object *profile_to_json(const struct profile *p)
{
	json_object *root = json_object_new_object(), *sites = json_object_new_array();
	size_t i;

	json_object_object_add(root, "format", json_object_new_string(PROFILE_FORMAT));
	json_object_object_add(root, "version", json_object_new_int(PROFILE_VERSION));
	json_object_object_add(root, "meta", meta_to_json(&p->meta, p->sample, p->dispatch));
	if (p->glibc)
		json_object_object_add(json_object_object_get(root, "meta"), "glibc",
				       profile_glibc_to_json(p->glibc));
	if (p->nr_groups) {
		json_object *groups = json_object_new_array();

		for (i = 0; i < p->nr_groups; i++)
			json_object_array_add(groups, group_to_json(&p->groups[i], i));
		json_object_object_add(root, "groups", groups);
	}
	for (i = 0; i < p->nr_sites; i++) {
		json_object *site = site_to_json(&p->sites[i]);

		if (p->nr_groups)
			json_object_object_add(site, "group",
					       json_object_new_uint64(p->sites[i].group));
		json_object_array_add(sites, site);
	}
	json_object_object_add(root, "sites", sites);
	return root;
}

int profile_write(const struct profile *p, const char *path)
{
	return jsonw_write_file(profile_to_json(p), path);
}

int profile_save(const struct profile *p, const char *path)
{
	int err = profile_write(p, path);

	if (!err && strcmp(path, "-"))
		p_info("profile written to %s", path);
	return err;
}

/* ---- reading ---- */

/* A duration in seconds: absent (0), or a finite number >= 0. */
static int duration_from_json(json_object *o, double *out, const char *name, const char *where)
{
	int err = jsonr_num(o, "duration_s", out);

	if (err == -ENOENT)
		return 0;
	if (err || *out < 0) {
		p_err("%s: %s\"duration_s\" must be a number of seconds >= 0", name, where);
		return -EINVAL;
	}
	return 0;
}

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

static int groups_from_json(json_object *arr, struct profile *p, const char *name)
{
	size_t i, n = json_object_array_length(arr);

	for (i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *v;
		struct profile_group *g;
		uint64_t n;

		if (!json_object_is_type(o, json_type_object)) {
			p_err("%s: groups[%zu] is not an object", name, i);
			return -EINVAL;
		}
		g = profile_add_group(p);
		if (!g)
			return -ENOMEM;
		g->kernel = jsonr_str(o, "kernel");
		g->cpu_model = jsonr_str(o, "cpu_model");
		g->cpu_flags = jsonr_strv(o, "cpu_flags", &g->nr_cpu_flags);
		g->hosts = jsonr_strv(o, "hosts", &g->nr_hosts);
		if (jsonr_u64(o, "profiles", &g->profiles))
			g->profiles = 1;
		(void)v;
		if (duration_from_json(o, &g->duration_s, name, "a group's "))
			return -EINVAL;
		if (!jsonr_u64(o, "sample_hz", &n))
			g->sample_hz = (uint32_t)n;
		jsonr_u64(o, "total_samples", &g->total_samples);
		jsonr_u64(o, "idle_samples", &g->idle_samples);
	}
	return 0;
}

static int meta_from_json(json_object *o, struct host_meta *m, const char *name)
{
	m->tool_version = jsonr_str(o, "tool_version");
	m->kernel = jsonr_str(o, "kernel");
	m->cpu_model = jsonr_str(o, "cpu_model");
	m->hostname = jsonr_str(o, "hostname");
	m->start = jsonr_str(o, "start");
	m->command = jsonr_str(o, "command");
	m->ended_by = jsonr_str(o, "ended_by");
	m->cpu_flags = jsonr_strv(o, "cpu_flags", &m->nr_cpu_flags);
	return duration_from_json(o, &m->duration_s, name, "meta ");
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

static int buckets_from_json(json_object *arr, struct hist_slot *slots, uint32_t id,
			     const char *name)
{
	size_t i, n = json_object_array_length(arr);

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
		/* Two rows of one bucket add up (hist_slot's fields are __u64). */
		sum_count = slots[b].count;
		sum_bytes = slots[b].bytes;
		if (add_u64(&sum_count, count, name, id, "count") ||
		    add_u64(&sum_bytes, bytes, name, id, "bytes"))
			return -EOVERFLOW;
		slots[b].count = sum_count;
		slots[b].bytes = sum_bytes;
	}
	return 0;
}

/* "address" is a hex string: 64-bit kernel addresses do not fit JSON's doubles. */
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
	size_t i, n;

	s->caller_misses = jsonr_u64_or(o, "caller_misses", 0);
	if (!json_object_object_get_ex(o, "callers", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return 0;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		struct profile_caller *d;
		uint32_t b;

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
		if (buckets_from_json(buckets, d->buckets, s->id, name))
			return -EINVAL;
		for (b = 0; b < CP_NBUCKETS; b++)
			if (add_u64(&d->calls, d->buckets[b].count, name, s->id,
				    "callers' count") ||
			    add_u64(&d->bytes, d->buckets[b].bytes, name, s->id, "callers' bytes"))
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

static int site_from_json(json_object *o, struct profile *p, const char *name)
{
	struct profile_site *s = profile_add_site(p);
	json_object *buckets;
	uint64_t v;
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
	if (buckets_from_json(buckets, s->buckets, s->id, name))
		return -EINVAL;
	s->calls = s->bytes = 0;
	for (b = 0; b < CP_NBUCKETS; b++)
		if (add_u64(&s->calls, s->buckets[b].count, name, s->id, "count") ||
		    add_u64(&s->bytes, s->buckets[b].bytes, name, s->id, "bytes"))
			return -EOVERFLOW;
	/* A writer may count calls it could not bucket (e.g. samples without a length). */
	if (!jsonr_u64(o, "calls", &v) && v > s->calls)
		s->calls = v;
	if (!jsonr_u64(o, "bytes", &v) && v > s->bytes)
		s->bytes = v;
	a = align_from_json(o, "dst_align", s->dst_align);
	b = align_from_json(o, "src_align", s->src_align);
	if (a < 0 || b < 0) {
		p_err("%s: site %u: dst_align/src_align must be arrays of %d unsigned integer "
		      "counts",
		      name, s->id, CP_ALIGN_SLOTS);
		return -EINVAL;
	}
	s->has_align = a > 0 || b > 0;
	s->sample = sample_site_from_json(o);
	s->mux = site_mux_from_json(o);
	s->source = source_from_json(o);
	s->label = jsonr_str(o, "label");
	s->build_id = jsonr_str(o, "build_id");
	address_from_json(o, &s->address);
	if (callers_from_json(o, s, name))
		return -EINVAL;
	if (!jsonr_u64(o, "group", &v)) {
		if (v >= p->nr_groups) {
			p_err("%s: site %u: group %llu is not in \"groups\"", name, s->id,
			      (unsigned long long)v);
			return -EINVAL;
		}
		s->group = (uint32_t)v;
	}
	return 0;
}

int profile_from_json(json_object *root, const char *name, struct profile **out)
{
	json_object *v, *d, *sites;
	struct profile *p;
	const char *format = NULL;
	size_t i;

	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "format", &v) ||
	    !(format = json_object_get_string(v)) || strcmp(format, PROFILE_FORMAT)) {
		if (format && !strncmp(format, "copyprof-", 9))
			p_err("%s is a %s file, not a profile (its \"format\" is \"%s\"): give a "
			      "profile from record, import-perf or merge",
			      name, format + 9, format);
		else
			p_err("%s: not a copyprof profile (no \"format\": \"%s\")", name,
			      PROFILE_FORMAT);
		return -EINVAL;
	}
	if (!json_object_object_get_ex(root, "version", &v) ||
	    !json_object_is_type(v, json_type_int)) {
		p_err("%s: profile has no integer \"version\"", name);
		return -EINVAL;
	}
	if (json_object_get_int(v) > PROFILE_VERSION || json_object_get_int(v) < 1) {
		p_err("%s: profile format version %d; this copyprof %s reads version %d: use a "
		      "newer copyprof",
		      name, json_object_get_int(v), COPYPROF_VERSION, PROFILE_VERSION);
		return -EINVAL;
	}
	if (!json_object_object_get_ex(root, "sites", &sites) ||
	    !json_object_is_type(sites, json_type_array)) {
		p_err("%s: profile has no \"sites\" array", name);
		return -EINVAL;
	}
	if (json_object_array_length(sites) > PROFILE_MAX_SITES) {
		p_err("%s: %zu sites; copyprof reads at most %d sites per profile (about 16.5 KB "
		      "of memory each, docs/profile-format.md#limits): merge or estimate fewer "
		      "hosts at once",
		      name, json_object_array_length(sites), PROFILE_MAX_SITES);
		return -E2BIG;
	}
	p = profile_new();
	if (!p)
		return -ENOMEM;
	if (json_object_object_get_ex(root, "meta", &v)) {
		if (meta_from_json(v, &p->meta, name)) {
			profile_free(p);
			return -EINVAL;
		}
		p->sample = sample_meta_from_json(v);
		if (json_object_object_get_ex(v, "dispatch", &d))
			p->dispatch = profile_dispatch_from_json(d);
		if (json_object_object_get_ex(v, "glibc", &d) &&
		    !(p->glibc = profile_glibc_from_json(d, name))) {
			profile_free(p);
			return -EINVAL;
		}
	}
	/* Groups before sites: a site's "group" indexes them. */
	if (json_object_object_get_ex(root, "groups", &v) &&
	    (!json_object_is_type(v, json_type_array) || groups_from_json(v, p, name))) {
		if (!json_object_is_type(v, json_type_array))
			p_err("%s: \"groups\" is not an array", name);
		profile_free(p);
		return -EINVAL;
	}
	for (i = 0; i < json_object_array_length(sites); i++) {
		int err = site_from_json(json_object_array_get_idx(sites, i), p, name);

		if (err) {
			profile_free(p);
			return err;
		}
	}
	/* Older profiles counted arguments from arg1: renumbered as bpftrace numbers them. */
	if (profile_args_from_json(json_object_object_get_ex(root, "meta", &v) ? v : NULL, p,
				   name)) {
		profile_free(p);
		return -EINVAL;
	}
	*out = p;
	return 0;
}

int profile_read(const char *path, struct profile **out)
{
	json_object *root;
	struct stat st;
	char why[160];
	int err;

	/* Checked before parsing: json-c's tree takes about 10 times the file's size. */
	if (strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > PROFILE_MAX_BYTES) {
		p_err("%s: %llu MiB; copyprof reads profiles of at most %llu MiB "
		      "(docs/profile-format.md#limits): merge or estimate fewer hosts at once",
		      path, (unsigned long long)st.st_size >> 20,
		      (unsigned long long)PROFILE_MAX_BYTES >> 20);
		return -E2BIG;
	}
	err = jsonr_read_file(path, &root, why, sizeof(why));
	if (err == -EINVAL) {
		p_err("%s is %s", path, why);
		return err;
	}
	if (err) {
		p_err("cannot read profile %s: %s", path, why);
		return err;
	}
	err = profile_from_json(root, path, out);
	json_object_put(root);
	return err;
}
