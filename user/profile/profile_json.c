// SPDX-License-Identifier: GPL-2.0
/* profile_json.c: a profile's JSON (docs/profile-format.md) written, site by site as it streams */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/machine_json.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "profile.h"
#include "profile_share.h"
#include "profile_args.h"
#include "profile_mux.h"

static json_object *meta_to_json(const struct host_meta *m, const struct sample_meta *sample,
				 const struct profile_dispatch *dispatch)
{
	json_object *o = json_object_new_object();

	jsonw_put_str(o, "tool_version", m->tool_version);
	jsonw_put_str(o, "kernel", m->kernel);
	jsonw_put_str(o, "cpu_model", m->cpu_model);
	machine_json_put(o, m);
	jsonw_put_str(o, "hostname", m->hostname);
	jsonw_put_str(o, "start", m->start);
	json_object_object_add(o, "duration_s", json_object_new_double(m->duration_s));
	jsonw_put_str(o, "command", m->command);
	jsonw_put_str(o, "ended_by", m->ended_by);
	if (m->cpu_known) {
		json_object_object_add(o, "cpu_s", json_object_new_double(m->cpu_s));
		json_object_object_add(o, "probe_cpu_s", json_object_new_double(m->probe_cpu_s));
	}
	if (m->copy_share.known)
		json_object_object_add(o, "copy_share", copy_share_to_json(&m->copy_share));
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
static json_object *buckets_to_json(const struct sparse_hist *h)
{
	json_object *buckets = json_object_new_array();
	const struct hist_bucket *e;

	sparse_hist_for_each (h, e) {
		json_object *row;

		if (!e->count)
			continue;
		row = json_object_new_object();
		json_object_object_add(row, "lo", json_object_new_uint64(hist_bucket_lo(e->b)));
		json_object_object_add(row, "hi", json_object_new_uint64(hist_bucket_hi(e->b)));
		json_object_object_add(row, "count", json_object_new_uint64(e->count));
		json_object_object_add(row, "bytes", json_object_new_uint64(e->bytes));
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
		json_object_object_add(o, "buckets", buckets_to_json(&c->buckets));
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
	jsonw_put_str(o, "family", copy_family_name(s->family));
	json_object_object_add(o, "calls", json_object_new_uint64(s->calls));
	json_object_object_add(o, "bytes", json_object_new_uint64(s->bytes));
	json_object_object_add(o, "buckets", buckets_to_json(&s->buckets));
	if (s->align.recorded) {
		uint64_t dst[CP_ALIGN_SLOTS], src[CP_ALIGN_SLOTS];

		site_align_dense(&s->align, dst, src);
		json_object_object_add(o, "dst_align", align_to_json(dst));
		json_object_object_add(o, "src_align", align_to_json(src));
	}
	if (s->dist.recorded)
		json_object_object_add(o, "distance", site_dist_to_json(&s->dist));
	if (s->exact.recorded)
		json_object_object_add(o, "exact", site_exact_to_json(&s->exact));
	if (s->footprint.recorded)
		json_object_object_add(o, "footprint", site_footprint_to_json(&s->footprint));
	if (s->cgroups.recorded)
		json_object_object_add(o, "cgroups", site_cgroups_to_json(&s->cgroups));
	if (s->order.recorded)
		json_object_object_add(o, "orders", site_order_to_json(&s->order));
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
	json_object_object_add(o, "cpu_flags",
			       g->cpu_flags_unknown ? NULL /* unknown */
						    : strv_to_json(g->cpu_flags, g->nr_cpu_flags));
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

/* Everything but the sites: format, version, meta, groups. */
static json_object *header_to_json(const struct profile *p)
{
	json_object *root = json_object_new_object();
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
	return root;
}

/* Site @i with its group (a merged profile's). */
static json_object *site_at(const struct profile *p, size_t i)
{
	json_object *site = site_to_json(&p->sites[i]);

	if (p->nr_groups)
		json_object_object_add(site, "group", json_object_new_uint64(p->sites[i].group));
	return site;
}

json_object *profile_to_json(const struct profile *p)
{
	json_object *root = header_to_json(p), *sites = json_object_new_array();
	size_t i;

	for (i = 0; i < p->nr_sites; i++)
		json_object_array_add(sites, site_at(p, i));
	json_object_object_add(root, "sites", sites);
	return root;
}

/* How json-c ends the header's empty "sites" array, the last member (PRETTY | SPACED). */
#define EMPTY_SITES_END "\n  ]\n}"

/*
 * The text json_object_to_json_string_ext(profile_to_json(p), PRETTY | SPACED) would give,
 * and a newline, without the whole tree: the header, then each site printed alone by json-c
 * and indented to its place in the "sites" array (jsonw_put_nested), one site in memory at a
 * time. Returns 0, or -ENOMEM or -EPROTO (a json-c that prints otherwise); a write that fails
 * leaves @f in error.
 */
int profile_write_stream(const struct profile *p, FILE *f)
{
	json_object *root = header_to_json(p);
	const char *text;
	size_t i, len;
	int err = 0;

	json_object_object_add(root, "sites", json_object_new_array());
	jsonw_sanitize(root);
	text = json_object_to_json_string_ext(root,
					      JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
	len = text ? strlen(text) : 0;
	if (len < strlen(EMPTY_SITES_END) ||
	    strcmp(text + len - strlen(EMPTY_SITES_END), EMPTY_SITES_END)) {
		json_object_put(root);
		return -EPROTO; /* a json-c that prints otherwise: the sites would not fit */
	}
	fwrite(text, 1, len - strlen(EMPTY_SITES_END), f);
	json_object_put(root);
	for (i = 0; !err && i < p->nr_sites; i++) {
		json_object *site = site_at(p, i);

		fputs(i ? ",\n    " : "\n    ", f);
		jsonw_sanitize(site);
		err = jsonw_put_nested(f, site, 2);
		json_object_put(site);
	}
	fputs(EMPTY_SITES_END "\n", f);
	return err; /* a failed write is the stream's: outfile_close() says it */
}

int profile_write(const struct profile *p, const char *path)
{
	struct outfile *of;
	FILE *f;
	int err = outfile_open(path, &of, &f);

	if (err)
		return err;
	err = profile_write_stream(p, f);
	if (err)
		p_err("cannot write %s: %s", path, strerror(-err));
	return outfile_close(of, err);
}

int profile_save(const struct profile *p, const char *path)
{
	int err = profile_write(p, path);

	if (!err && strcmp(path, "-"))
		p_info("profile written to %s", path);
	return err;
}
