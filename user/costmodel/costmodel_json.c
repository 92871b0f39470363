// SPDX-License-Identifier: GPL-2.0
/* costmodel_json.c: the cost model's JSON form (docs/costmodel-format.md), written and read */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "costmodel.h"
#include "costmodel_paired.h"
#include "mixmeas_pool.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/machine_json.h"
#include "lib/log.h"

/* A double printed with @fmt, so the file says 67.12 and not 67.120000000000005. */
static void put_num(json_object *o, const char *key, const char *fmt, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	json_object_object_add(o, key, json_object_new_double_s(v, buf));
}

static json_object *meta_to_json(const struct costmodel *m)
{
	json_object *o = json_object_new_object();

	jsonw_put_str(o, "tool_version", m->meta.tool_version);
	jsonw_put_str(o, "kernel", m->meta.kernel);
	jsonw_put_str(o, "cpu_model", m->meta.cpu_model);
	machine_json_put(o, &m->meta);
	json_object_object_add(o, "erms", json_object_new_boolean(m->erms));
	json_object_object_add(o, "measured", json_object_new_boolean(m->measured));
	jsonw_put_str(o, "note", m->note);
	jsonw_put_str(o, "hostname", m->meta.hostname);
	jsonw_put_str(o, "start", m->meta.start);
	jsonw_put_str(o, "command", m->meta.command);
	if (m->meta.duration_s > 0)
		put_num(o, "duration_s", "%.2f", m->meta.duration_s);
	jsonw_put_str(o, "timer", m->timer);
	if (m->tsc_hz > 0)
		put_num(o, "tsc_hz", "%.0f", m->tsc_hz);
	if (m->timer_overhead_cycles > 0)
		put_num(o, "timer_overhead_cycles", "%.1f", m->timer_overhead_cycles);
	if (m->timer_step_cycles > 0)
		put_num(o, "timer_step_cycles", "%.0f", m->timer_step_cycles);
	if (m->cpu >= 0)
		json_object_object_add(o, "cpu", json_object_new_int(m->cpu));
	if (m->runs > 0)
		json_object_object_add(o, "runs", json_object_new_int(m->runs));
	return o;
}

/* "limits": what calibrate measured this machine can do at best (costmodel_limits.h). */
static json_object *limits_to_json(const struct costmodel_limits *l)
{
	json_object *o = json_object_new_object();

	put_num(o, "store_bytes_per_ns", "%.2f", l->store_bytes_per_ns);
	jsonw_put_str(o, "store_loop", l->store_loop);
	put_num(o, "copy_bytes_per_ns", "%.2f", l->copy_bytes_per_ns);
	jsonw_put_str(o, "copy_loop", l->copy_loop);
	put_num(o, "call_ns", "%.4f", l->call_ns);
	put_num(o, "margin", "%.2f", l->margin);
	return o;
}

static json_object *point_to_json(const struct costmodel_point *p)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "size", json_object_new_uint64(p->size));
	put_num(o, "ns", "%.2f", p->ns);
	if (p->cycles > 0)
		put_num(o, "cycles", "%.1f", p->cycles);
	if (p->spread >= 0)
		put_num(o, "spread", "%.4f", p->spread);
	if (p->ci > 0)
		put_num(o, "ci_ns", "%.4f", p->ci);
	if (p->runs > 0)
		json_object_object_add(o, "runs", json_object_new_int(p->runs));
	if (p->ns_max > 0) {
		put_num(o, "ns_min", "%.2f", p->ns_min);
		put_num(o, "ns_max", "%.2f", p->ns_max);
	}
	return o;
}

static json_object *curve_to_json(const struct costmodel_curve *c)
{
	json_object *o = json_object_new_object(), *align = json_object_new_array();
	json_object *points = json_object_new_array();
	size_t i;

	jsonw_put_str(o, "name", c->name);
	jsonw_put_str(o, "family", c->family);
	jsonw_put_str(o, "cache", costmodel_cache_name(c->cache));
	json_object_array_add(align, json_object_new_int64(c->align_dst));
	json_object_array_add(align, json_object_new_int64(c->align_src));
	json_object_object_add(o, "align", align);
	if (c->threshold >= 0)
		json_object_object_add(o, "threshold", json_object_new_int64(c->threshold));
	for (i = 0; i < c->nr_points; i++)
		json_object_array_add(points, point_to_json(&c->points[i]));
	json_object_object_add(o, "points", points);
	return o;
}

/*
 * Why @e cannot join the sittings already read for its mix in its condition, or NULL if it can
 * (the first of another condition starts a cell of its own: mixmeas_why_apart()).
 */
static const char *sitting_misfit(const struct costmodel *m, const struct mixmeas *e)
{
	const struct mixmeas *s[MIXMEAS_MAX_SITTINGS];
	size_t i, n = costmodel_paired_sittings(m, e->family, e->digest, e->site, e, s,
						MIXMEAS_MAX_SITTINGS);
	const char *why;

	for (i = 0; i < n; i++)
		if ((why = mixmeas_why_apart(s[i], e)))
			return why;
	return n < MIXMEAS_MAX_SITTINGS ? NULL : "more sittings than are kept";
}

/*
 * The "paired" array: each entry checked; entries of one family and digest are sittings of
 * one measurement (the same conditions, at most MIXMEAS_MAX_SITTINGS), else refused.
 */
static int paired_from_json(json_object *a, struct costmodel *m, const char *name)
{
	const char *why;
	size_t i, n;
	int err;

	if (!json_object_is_type(a, json_type_array)) {
		p_err("%s: \"paired\" is not an array", name);
		return -EINVAL;
	}
	n = json_object_array_length(a);
	m->paired = calloc(n ? n : 1, sizeof(*m->paired));
	if (!m->paired)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		err = mixmeas_from_json(json_object_array_get_idx(a, i), name, &m->paired[i]);
		if (err)
			return err;
		why = sitting_misfit(m, &m->paired[i]);
		if (why) {
			p_err("%s: \"paired\" entries for %s mix %s that are not sittings of one "
			      "measurement, so never pooled: %s (at most %d sittings of the same "
			      "conditions, policies and protocol)",
			      name, m->paired[i].family, m->paired[i].digest, why,
			      MIXMEAS_MAX_SITTINGS);
			mixmeas_free(&m->paired[i]);
			return -EINVAL;
		}
		m->nr_paired++;
	}
	return 0;
}

json_object *costmodel_to_json(const struct costmodel *m)
{
	json_object *root = json_object_new_object(), *impls = json_object_new_array();
	size_t i;

	json_object_object_add(root, "format", json_object_new_string(COSTMODEL_FORMAT));
	json_object_object_add(root, "version", json_object_new_int(COSTMODEL_VERSION));
	json_object_object_add(root, "meta", meta_to_json(m));
	if (costmodel_limits_known(&m->limits))
		json_object_object_add(root, "limits", limits_to_json(&m->limits));
	for (i = 0; i < m->nr_curves; i++)
		json_object_array_add(impls, curve_to_json(&m->curves[i]));
	json_object_object_add(root, "impls", impls);
	if (m->nr_paired) {
		json_object *a = json_object_new_array();

		for (i = 0; i < m->nr_paired; i++)
			json_object_array_add(a, mixmeas_to_json(&m->paired[i]));
		json_object_object_add(root, "paired", a);
	}
	return root;
}

int costmodel_write(const struct costmodel *m, const char *path)
{
	return jsonw_write_file(costmodel_to_json(m), path);
}

/* ---- reading: unknown keys are ignored, missing optional ones keep their defaults ---- */

/* An integer in [@lo, @hi] at @key: 0, -ENOENT if absent, -EINVAL (printed) if not. */
static int int_in(json_object *o, const char *key, double lo, double hi, double *out,
		  const char *name, const char *where)
{
	int err = jsonr_num(o, key, out);

	if (err == -ENOENT)
		return err;
	if (err || *out != floor(*out) || *out < lo || *out > hi) {
		p_err("%s: %s\"%s\" must be an integer from %.0f to %.0f", name, where, key, lo,
		      hi);
		return -EINVAL;
	}
	return 0;
}

static int meta_from_json(json_object *o, struct costmodel *m, const char *name)
{
	double d;
	int err;

	m->meta.tool_version = jsonr_str(o, "tool_version");
	m->meta.kernel = jsonr_str(o, "kernel");
	m->meta.cpu_model = jsonr_str(o, "cpu_model");
	m->meta.hostname = jsonr_str(o, "hostname");
	m->meta.start = jsonr_str(o, "start");
	m->meta.command = jsonr_str(o, "command");
	m->note = jsonr_str(o, "note");
	m->timer = jsonr_str(o, "timer");
	m->erms = jsonr_bool(o, "erms", true);
	m->measured = jsonr_bool(o, "measured", true);
	if (!jsonr_num(o, "duration_s", &d))
		m->meta.duration_s = d;
	if (!jsonr_num(o, "tsc_hz", &d))
		m->tsc_hz = d;
	if (!jsonr_num(o, "timer_overhead_cycles", &d))
		m->timer_overhead_cycles = d;
	if (!jsonr_num(o, "timer_step_cycles", &d))
		m->timer_step_cycles = d;
	machine_json_get(o, &m->meta);
	err = int_in(o, "cpu", -1, INT_MAX, &d, name, "meta ");
	if (!err)
		m->cpu = (int)d;
	else if (err != -ENOENT)
		return err;
	err = int_in(o, "runs", 0, INT_MAX, &d, name, "meta ");
	if (!err)
		m->runs = (int)d;
	else if (err != -ENOENT)
		return err;
	return 0;
}

/* A loop's name from "limits" into @buf: a short word, as calibrate writes it. */
static bool loop_name(json_object *o, const char *key, char *buf, size_t len)
{
	char *s = jsonr_str(o, key);
	bool ok = s && *s && strlen(s) < len;

	if (ok)
		snprintf(buf, len, "%s", s);
	free(s);
	return ok;
}

/*
 * "limits" (optional: a model written before calibrate measured them has none, and is read
 * as before): every figure positive, the margin in [0, 1).
 */
static int limits_from_json(json_object *o, struct costmodel_limits *l, const char *name)
{
	if (!json_object_is_type(o, json_type_object) ||
	    jsonr_num(o, "store_bytes_per_ns", &l->store_bytes_per_ns) ||
	    jsonr_num(o, "copy_bytes_per_ns", &l->copy_bytes_per_ns) ||
	    jsonr_num(o, "call_ns", &l->call_ns) || jsonr_num(o, "margin", &l->margin) ||
	    !loop_name(o, "store_loop", l->store_loop, sizeof(l->store_loop)) ||
	    !loop_name(o, "copy_loop", l->copy_loop, sizeof(l->copy_loop)) ||
	    !costmodel_limits_known(l)) {
		p_err("%s: \"limits\" needs numbers \"store_bytes_per_ns\", \"copy_bytes_per_ns\" "
		      "and \"call_ns\" > 0, \"margin\" from 0 to below 1, and short strings "
		      "\"store_loop\" and \"copy_loop\"",
		      name);
		return -EINVAL;
	}
	return 0;
}

/*
 * The most a call of @size bytes can take and still be a measurement: a second, then 1 us a
 * byte (a copy at 1 MB/s). 1e308 ns would make every sum inf and every share NaN.
 */
static double point_max_ns(double size)
{
	return 1e9 + size * 1e3;
}

/* 0 if the optional @v is unset (0) or within [0, @max]. */
static bool in_bounds(double v, double max)
{
	return v >= 0 && v <= max;
}

static int point_from_json(json_object *o, struct costmodel_curve *c, const char *name, size_t idx)
{
	struct costmodel_point p = { .spread = -1 };
	double size, runs = 0;
	int err;

	if (jsonr_num(o, "size", &size) || size < 1 || size != floor(size) || size > 0x1p62 ||
	    jsonr_num(o, "ns", &p.ns) || !(p.ns > 0) || p.ns > point_max_ns(size)) {
		/* ns 0 would make every ratio infinite: no copy takes no time. */
		p_err("%s: %s (%s) point %zu needs an integer \"size\" >= 1 and a number \"ns\" > "
		      "0, at most 1 s plus 1 us a byte (a copy at 1 MB/s)",
		      name, c->name, costmodel_cache_name(c->cache), idx);
		return -EINVAL;
	}
	p.size = (uint64_t)size;
	if (jsonr_num(o, "cycles", &p.cycles) == -EINVAL ||
	    jsonr_num(o, "spread", &p.spread) == -EINVAL ||
	    jsonr_num(o, "ns_min", &p.ns_min) == -EINVAL ||
	    jsonr_num(o, "ns_max", &p.ns_max) == -EINVAL ||
	    jsonr_num(o, "ci_ns", &p.ci) == -EINVAL || jsonr_num(o, "runs", &runs) == -EINVAL ||
	    !in_bounds(p.ci, point_max_ns(size)) || !in_bounds(p.ns_min, point_max_ns(size)) ||
	    !in_bounds(p.ns_max, point_max_ns(size)) ||
	    !in_bounds(p.cycles, 100 * point_max_ns(size)) || !(runs >= 0 && runs <= 1e6)) {
		p_err("%s: %s (%s) point at size %llu: cycles, spread, ns_min, ns_max, ci_ns and "
		      "runs must be numbers (ci_ns, ns_min, ns_max and cycles >= 0 and bounded as "
		      "ns is; runs >= 0)",
		      name, c->name, costmodel_cache_name(c->cache), (unsigned long long)p.size);
		return -EINVAL;
	}
	p.runs = (int)runs;
	err = costmodel_curve_add_point(c, &p);
	if (err == -EEXIST)
		p_err("%s: %s (%s) has two points at size %llu", name, c->name,
		      costmodel_cache_name(c->cache), (unsigned long long)p.size);
	return err;
}

static int curve_from_json(json_object *o, struct costmodel *m, const char *name, size_t idx)
{
	json_object *points, *align;
	struct costmodel_curve *c;
	char *impl, *family, *cache_s;
	int cache, err = 0;
	double t;
	size_t i;

	impl = jsonr_str(o, "name");
	family = jsonr_str(o, "family");
	cache_s = jsonr_str(o, "cache");
	cache = costmodel_cache_parse(cache_s);
	if (!impl || !cache_s) {
		p_err("%s: impls[%zu] needs string \"name\" and \"cache\"", name, idx);
		err = -EINVAL;
		goto out;
	}
	if (cache < 0) {
		/* A cache state added later: skip it rather than refuse the whole model. */
		p_debug("%s: impls[%zu] (%s): unknown cache state '%s' skipped", name, idx, impl,
			cache_s);
		goto out;
	}
	c = costmodel_add_curve(m, impl, family, cache);
	if (!c) {
		err = -ENOMEM;
		goto out;
	}
	if (json_object_object_get_ex(o, "align", &align)) {
		/* json-c asserts on an index into what is not an array: check the type first. */
		bool pair = json_object_is_type(align, json_type_array) &&
			    json_object_array_length(align) == 2;
		json_object *d = pair ? json_object_array_get_idx(align, 0) : NULL,
			    *s = pair ? json_object_array_get_idx(align, 1) : NULL;

		if (!pair || !json_object_is_type(d, json_type_int) ||
		    !json_object_is_type(s, json_type_int) || json_object_get_int64(d) < 0 ||
		    json_object_get_int64(d) > 63 || json_object_get_int64(s) < 0 ||
		    json_object_get_int64(s) > 63) {
			p_err("%s: %s (%s): \"align\" must be [dst, src], integers from 0 to 63",
			      name, impl, cache_s);
			err = -EINVAL;
			goto out;
		}
		c->align_dst = (uint32_t)json_object_get_int64(d);
		c->align_src = (uint32_t)json_object_get_int64(s);
	}
	/* -1: none; a threshold is a length, at most 2^62 like a point's size. */
	err = int_in(o, "threshold", -1, 0x1p62, &t, name, "");
	if (!err)
		c->threshold = (int64_t)t;
	else if (err != -ENOENT)
		goto out;
	err = 0;
	if (!json_object_object_get_ex(o, "points", &points) ||
	    !json_object_is_type(points, json_type_array)) {
		p_err("%s: %s (%s) has no \"points\" array", name, impl, cache_s);
		err = -EINVAL;
		goto out;
	}
	if (!json_object_array_length(points)) {
		p_err("%s: %s (%s) has an empty \"points\" array: nothing to estimate with", name,
		      impl, cache_s);
		err = -EINVAL;
		goto out;
	}
	for (i = 0; !err && i < json_object_array_length(points); i++)
		err = point_from_json(json_object_array_get_idx(points, i), c, name, i);
out:
	free(impl);
	free(family);
	free(cache_s);
	return err;
}

int costmodel_from_json(json_object *root, const char *name, struct costmodel **out)
{
	json_object *v, *impls;
	struct costmodel *m;
	const char *format;
	int64_t version;
	size_t i;
	int err = 0;

	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "format", &v) ||
	    !json_object_is_type(v, json_type_string)) {
		p_err("%s is not a copyprof cost model (no \"format\" field)", name);
		return -EINVAL;
	}
	format = json_object_get_string(v);
	if (strcmp(format, COSTMODEL_FORMAT)) {
		p_err("%s is not a copyprof cost model (format \"%s\", expected \"%s\")", name,
		      format, COSTMODEL_FORMAT);
		return -EINVAL;
	}
	if (!json_object_object_get_ex(root, "version", &v) ||
	    !json_object_is_type(v, json_type_int)) {
		p_err("%s: cost model has no integer \"version\"", name);
		return -EINVAL;
	}
	version = json_object_get_int64(v);
	if (version > COSTMODEL_VERSION || version < 1) {
		p_err("%s: cost model version %lld; this copyprof reads version %d: a newer "
		      "copyprof "
		      "wrote it, upgrade copyprof to read it",
		      name, (long long)version, COSTMODEL_VERSION);
		return -EINVAL;
	}
	if (!json_object_object_get_ex(root, "impls", &impls) ||
	    !json_object_is_type(impls, json_type_array)) {
		p_err("%s: cost model has no \"impls\" array", name);
		return -EINVAL;
	}
	if (!json_object_array_length(impls)) {
		p_err("%s: cost model has an empty \"impls\" array: calibrate again", name);
		return -EINVAL;
	}
	m = costmodel_new();
	if (!m)
		return -ENOMEM;
	if (json_object_object_get_ex(root, "meta", &v) && json_object_is_type(v, json_type_object))
		err = meta_from_json(v, m, name);
	for (i = 0; !err && i < json_object_array_length(impls); i++) {
		json_object *c = json_object_array_get_idx(impls, i);

		if (!json_object_is_type(c, json_type_object)) {
			p_err("%s: impls[%zu] is not an object", name, i);
			err = -EINVAL;
			break;
		}
		err = curve_from_json(c, m, name, i);
	}
	if (!err && !m->nr_curves) {
		p_err("%s: no curve of the cost model has a cache state this copyprof knows", name);
		err = -EINVAL;
	}
	if (!err && json_object_object_get_ex(root, "limits", &v))
		err = limits_from_json(v, &m->limits, name);
	if (!err && json_object_object_get_ex(root, "paired", &v))
		err = paired_from_json(v, m, name);
	if (err) {
		costmodel_free(m);
		return err;
	}
	*out = m;
	return 0;
}

int costmodel_read(const char *path, struct costmodel **out)
{
	json_object *root;
	char why[160];
	int err;

	err = jsonr_read_file(path, &root, why, sizeof(why));
	if (err) {
		p_err("cannot read cost model %s: %s", path, why);
		return err;
	}
	err = costmodel_from_json(root, path, out);
	json_object_put(root);
	return err;
}
