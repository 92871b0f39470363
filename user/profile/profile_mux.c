// SPDX-License-Identifier: GPL-2.0
/* profile_mux.c: multiplexed sites: scaling by enabled/running time, the fields, the wording */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/jsonr.h"
#include "profile.h"
#include "profile_mux.h"

/* Scales one histogram by @f, keeping each bucket's mean length. */
static void scale_buckets(struct sparse_hist *h, double f, uint64_t *calls, uint64_t *bytes)
{
	struct hist_bucket *e;

	*calls = *bytes = 0;
	sparse_hist_for_each (h, e) {
		uint64_t c = e->count, n;

		if (!c)
			continue;
		n = (uint64_t)llround((double)c * f);
		e->bytes = (uint64_t)llround((double)e->bytes * ((double)n / (double)c));
		e->count = n;
		*calls += n;
		*bytes += e->bytes;
	}
}

static const char *const scaling_names[] = {
	[MUX_SCALING_TIME] = "time",
	[MUX_SCALING_REFERENCE] = "reference",
	[MUX_SCALING_NONE] = "none",
	[MUX_SCALING_MIXED] = "mixed",
};

const char *site_mux_scaling_name(enum site_mux_scaling sc)
{
	return (unsigned)sc < sizeof(scaling_names) / sizeof(*scaling_names) ? scaling_names[sc]
									     : "time";
}

/* The factor that turns counted calls into the estimate of all calls; 0 when nothing ran. */
static double mux_factor(const struct site_mux *m)
{
	switch (m->scaling) {
	case MUX_SCALING_REFERENCE:
		return m->ref_calls_running ? (double)m->ref_calls / (double)m->ref_calls_running
					    : 0;
	case MUX_SCALING_NONE:
		return 1;
	default:
		return m->running_ns ? (double)m->enabled_ns / (double)m->running_ns : 0;
	}
}

int site_mux_scale(struct profile_site *s, const struct site_mux *m)
{
	double f = mux_factor(m);
	size_t i;

	s->mux = calloc(1, sizeof(*s->mux));
	if (!s->mux)
		return -ENOMEM;
	*s->mux = *m;
	s->mux->raw_calls = s->calls;
	s->mux->raw_bytes = s->bytes;
	if (f == 1)
		return 0; /* exact: nothing to round */
	scale_buckets(&s->buckets, f, &s->calls, &s->bytes);
	for (i = 0; i < s->nr_callers; i++)
		scale_buckets(&s->callers[i].buckets, f, &s->callers[i].calls,
			      &s->callers[i].bytes);
	s->caller_misses = (uint64_t)llround((double)s->caller_misses * f);
	return 0;
}

double site_mux_running(const struct profile_site *s)
{
	if (!s->mux || !s->mux->enabled_ns)
		return 1;
	return (double)s->mux->running_ns / (double)s->mux->enabled_ns;
}

double site_mux_share(const struct profile_site *s)
{
	const struct site_mux *m = s->mux;

	if (!m)
		return 1;
	switch (m->scaling) {
	case MUX_SCALING_REFERENCE:
		return m->ref_calls ? (double)m->ref_calls_running / (double)m->ref_calls : 1;
	case MUX_SCALING_NONE:
		return 1;
	case MUX_SCALING_MIXED:
		if (s->calls && m->raw_calls <= s->calls)
			return (double)m->raw_calls / (double)s->calls;
		return site_mux_running(s);
	default:
		return site_mux_running(s);
	}
}

const char *site_mux_describe(const struct profile_site *s, char *buf, size_t len)
{
	double r = site_mux_running(s);

	if (!s->mux || r >= 1 || s->mux->scaling == MUX_SCALING_NONE)
		snprintf(buf, len, "%s", "");
	else if (!s->mux->running_ns)
		snprintf(buf, len, "not counted (never on a debug register)");
	else if (s->mux->scaling == MUX_SCALING_REFERENCE)
		snprintf(buf, len, "scaled (running %.0f%% of the time, %.0f%% of site %d's calls)",
			 100 * r, 100 * site_mux_share(s), (int)s->mux->ref_site);
	else
		snprintf(buf, len, "scaled (running %.0f%% of the time)", 100 * r);
	return buf;
}

void site_mux_to_json(const struct site_mux *m, json_object *site)
{
	json_object *o;

	if (!m)
		return;
	o = json_object_new_object();
	json_object_object_add(o, "time_enabled_ns", json_object_new_uint64(m->enabled_ns));
	json_object_object_add(o, "time_running_ns", json_object_new_uint64(m->running_ns));
	json_object_object_add(
		o, "running",
		json_object_new_double(m->enabled_ns ? (double)m->running_ns / (double)m->enabled_ns
						     : 0));
	json_object_object_add(o, "raw_calls", json_object_new_uint64(m->raw_calls));
	json_object_object_add(o, "raw_bytes", json_object_new_uint64(m->raw_bytes));
	json_object_object_add(o, "scaling",
			       json_object_new_string(site_mux_scaling_name(m->scaling)));
	if (m->ref_site >= 0) {
		json_object_object_add(o, "reference_site", json_object_new_int(m->ref_site));
		json_object_object_add(o, "reference_calls", json_object_new_uint64(m->ref_calls));
		json_object_object_add(o, "reference_calls_running",
				       json_object_new_uint64(m->ref_calls_running));
		json_object_object_add(o, "reference_calls_moves",
				       json_object_new_uint64(m->ref_calls_moves));
		json_object_object_add(o, "reference_calls_moves_credited",
				       json_object_new_uint64(m->ref_calls_moves_credited));
	}
	json_object_object_add(site, "multiplex", o);
}

struct site_mux *site_mux_from_json(json_object *site)
{
	enum site_mux_scaling sc;
	struct site_mux *m;
	json_object *o, *v;
	int64_t id;

	if (!json_object_object_get_ex(site, "multiplex", &o) ||
	    !json_object_is_type(o, json_type_object))
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->enabled_ns = jsonr_u64_or(o, "time_enabled_ns", 0);
	m->running_ns = jsonr_u64_or(o, "time_running_ns", 0);
	m->raw_calls = jsonr_u64_or(o, "raw_calls", 0);
	m->raw_bytes = jsonr_u64_or(o, "raw_bytes", 0);
	if (m->running_ns > m->enabled_ns)
		m->running_ns = m->enabled_ns; /* never claim more than all the time */
	m->ref_site = -1;
	if (json_object_object_get_ex(o, "scaling", &v) && json_object_is_type(v, json_type_string))
		for (sc = MUX_SCALING_TIME; sc <= MUX_SCALING_MIXED; sc++)
			if (!strcmp(json_object_get_string(v), site_mux_scaling_name(sc)))
				m->scaling = sc;
	if (json_object_object_get_ex(o, "reference_site", &v) &&
	    json_object_is_type(v, json_type_int)) {
		id = json_object_get_int64(v);
		m->ref_site = id >= 0 && id <= INT32_MAX ? (int32_t)id : -1;
	}
	m->ref_calls = jsonr_u64_or(o, "reference_calls", 0);
	m->ref_calls_running = jsonr_u64_or(o, "reference_calls_running", 0);
	m->ref_calls_moves = jsonr_u64_or(o, "reference_calls_moves", 0);
	m->ref_calls_moves_credited = jsonr_u64_or(o, "reference_calls_moves_credited", 0);
	if (m->ref_calls_moves_credited > m->ref_calls_moves)
		m->ref_calls_moves_credited = m->ref_calls_moves;
	/* A reference share above all of it, or without a reference: read as time scaling. */
	if (m->scaling == MUX_SCALING_REFERENCE &&
	    (m->ref_site < 0 || !m->ref_calls_running || m->ref_calls_running > m->ref_calls))
		m->scaling = MUX_SCALING_TIME;
	return m;
}

int site_mux_add(struct site_mux **dst, const struct site_mux *src, uint64_t unscaled_calls,
		 uint64_t unscaled_bytes)
{
	bool fresh = !*dst;

	if (!*dst && !(*dst = calloc(1, sizeof(**dst))))
		return -ENOMEM;
	if (fresh) {
		(*dst)->ref_site = src ? src->ref_site : -1;
		(*dst)->scaling = src ? src->scaling : MUX_SCALING_NONE;
	}
	if (!src) {
		/* A recording of the site that was not multiplexed: exact, no time to add. */
		(*dst)->raw_calls += unscaled_calls;
		(*dst)->raw_bytes += unscaled_bytes;
		if ((*dst)->scaling != MUX_SCALING_NONE)
			(*dst)->scaling = MUX_SCALING_MIXED;
		return 0;
	}
	/* Different rules, or references that are different sites: no one factor describes it. */
	if (!fresh && ((*dst)->scaling != src->scaling || (*dst)->ref_site != src->ref_site))
		(*dst)->scaling = MUX_SCALING_MIXED;
	if ((*dst)->scaling == MUX_SCALING_MIXED)
		(*dst)->ref_site = -1;
	(*dst)->ref_calls += src->ref_calls;
	(*dst)->ref_calls_running += src->ref_calls_running;
	(*dst)->ref_calls_moves += src->ref_calls_moves;
	(*dst)->ref_calls_moves_credited += src->ref_calls_moves_credited;
	(*dst)->enabled_ns += src->enabled_ns;
	(*dst)->running_ns += src->running_ns;
	(*dst)->raw_calls += src->raw_calls;
	(*dst)->raw_bytes += src->raw_bytes;
	return 0;
}
