// SPDX-License-Identifier: GPL-2.0
/* profile_mux.c: multiplexed sites: scaling by enabled/running time, the fields, the wording */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/jsonr.h"
#include "profile.h"
#include "profile_mux.h"

/* Scales one histogram by @f, keeping each bucket's mean length. */
static void scale_buckets(struct hist_slot *b, double f, uint64_t *calls, uint64_t *bytes)
{
	uint32_t i;

	*calls = *bytes = 0;
	for (i = 0; i < CP_NBUCKETS; i++) {
		uint64_t c = b[i].count, n;

		if (!c)
			continue;
		n = (uint64_t)llround((double)c * f);
		b[i].bytes = (uint64_t)llround((double)b[i].bytes * ((double)n / (double)c));
		b[i].count = n;
		*calls += n;
		*bytes += b[i].bytes;
	}
}

int site_mux_scale(struct profile_site *s, uint64_t enabled_ns, uint64_t running_ns)
{
	double f = running_ns ? (double)enabled_ns / (double)running_ns : 0;
	size_t i;

	s->mux = calloc(1, sizeof(*s->mux));
	if (!s->mux)
		return -ENOMEM;
	*s->mux = (struct site_mux){ enabled_ns, running_ns, s->calls, s->bytes };
	scale_buckets(s->buckets, f, &s->calls, &s->bytes);
	for (i = 0; i < s->nr_callers; i++)
		scale_buckets(s->callers[i].buckets, f, &s->callers[i].calls, &s->callers[i].bytes);
	s->caller_misses = (uint64_t)llround((double)s->caller_misses * f);
	return 0;
}

double site_mux_running(const struct profile_site *s)
{
	if (!s->mux || !s->mux->enabled_ns)
		return 1;
	return (double)s->mux->running_ns / (double)s->mux->enabled_ns;
}

const char *site_mux_describe(const struct profile_site *s, char *buf, size_t len)
{
	double r = site_mux_running(s);

	if (!s->mux || r >= 1)
		snprintf(buf, len, "%s", "");
	else if (!s->mux->running_ns)
		snprintf(buf, len, "not counted (never on a debug register)");
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
	json_object_object_add(site, "multiplex", o);
}

struct site_mux *site_mux_from_json(json_object *site)
{
	struct site_mux *m;
	json_object *o;

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
	return m;
}

int site_mux_add(struct site_mux **dst, const struct site_mux *src, uint64_t unscaled_calls,
		 uint64_t unscaled_bytes)
{
	if (!*dst && !(*dst = calloc(1, sizeof(**dst))))
		return -ENOMEM;
	if (!src) {
		/* A recording of the site that was not multiplexed: exact, no time to add. */
		(*dst)->raw_calls += unscaled_calls;
		(*dst)->raw_bytes += unscaled_bytes;
		return 0;
	}
	(*dst)->enabled_ns += src->enabled_ns;
	(*dst)->running_ns += src->running_ns;
	(*dst)->raw_calls += src->raw_calls;
	(*dst)->raw_bytes += src->raw_bytes;
	return 0;
}
