// SPDX-License-Identifier: GPL-2.0
/* mixmeas.c: a paired measurement of one family's mix, in memory and as a cost model's JSON */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/log.h"
#include "lib/num_format.h"
#include "mixmeas.h"

void mixmeas_free(struct mixmeas *m)
{
	if (!m)
		return;
	free(m->family);
	free(m->digest);
	free(m->site);
	free(m->input);
	free(m->today);
	free(m->weight);
	free(m->calls_note);
	free(m->cache);
	free(m->alignment);
	free(m->distance);
	free(m->rows);
	memset(m, 0, sizeof(*m));
}

const struct mixmeas_row *mixmeas_row_find(const struct mixmeas *m, const struct policy_key *k)
{
	size_t i;

	for (i = 0; i < m->nr_rows; i++)
		if (policy_key_same(&m->rows[i].key, k))
			return &m->rows[i];
	return NULL;
}

bool mixmeas_has_quiet(const struct mixmeas *m)
{
	return m->quiet_rounds >= MIXMEAS_MIN_ROUNDS;
}

bool mixmeas_seldom_quiet(const struct mixmeas *m)
{
	return m->rounds && (double)m->quiet_rounds < MIXMEAS_SELDOM_QUIET * (double)m->rounds;
}

const char *mixmeas_sittings_apart(const struct mixmeas *m, char *buf, size_t len)
{
	double d = m->when - m->first_when;

	if (!(m->first_when > 0) || !(m->when > 0) || d < 0)
		snprintf(buf, len, "at times not recorded");
	else if (d < 120)
		snprintf(buf, len, "the first %.0f s before the last", d);
	else if (d < 7200)
		snprintf(buf, len, "the first %.0f min before the last", d / 60);
	else
		snprintf(buf, len, "the first %.1f h before the last", d / 3600);
	return buf;
}

const char *mixmeas_condition(const struct mixmeas *mm, char *buf, size_t len)
{
	char ws[24];

	snprintf(buf, len, "%s, %s a side", mm->cache ? mm->cache : "cache state not recorded",
		 num_format_bytes(mm->ws_bytes, ws, sizeof(ws)));
	return buf;
}

static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *figure_to_json(const struct mixmeas_figure *f)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "delta_pct", num(f->delta_pct));
	json_object_object_add(o, "ci_low", num(f->ci_low));
	json_object_object_add(o, "ci_high", num(f->ci_high));
	return o;
}

json_object *mixmeas_to_json(const struct mixmeas *m)
{
	json_object *o = json_object_new_object(), *c = json_object_new_object();
	json_object *rows = json_object_new_array();
	size_t i;

	jsonw_put_str(o, "family", m->family);
	jsonw_put_str(o, "digest", m->digest);
	jsonw_put_str(o, "site", m->site);
	jsonw_put_str(o, "input", m->input);
	jsonw_put_str(o, "today", m->today);
	jsonw_put_str(o, "weight", m->weight);
	jsonw_put_str(o, "calls_note", m->calls_note);
	jsonw_put_str(c, "cache", m->cache);
	json_object_object_add(c, "working_set_bytes", json_object_new_uint64(m->ws_bytes));
	json_object_object_add(c, "cold_bytes", json_object_new_uint64(m->cold_bytes));
	jsonw_put_str(c, "alignment", m->alignment);
	jsonw_put_str(c, "distance", m->distance);
	if (isfinite(m->exact_pct))
		json_object_object_add(c, "lengths_exact_pct", num(m->exact_pct));
	jsonw_put_str(c, "lengths_order", m->order_runs ? "recorded" : "independent");
	if (m->order_runs) {
		json_object_object_add(c, "order_runs", json_object_new_uint64(m->order_runs));
		json_object_object_add(c, "order_calls", json_object_new_uint64(m->order_calls));
	}
	json_object_object_add(c, "chunk_calls", json_object_new_uint64(m->chunk_calls));
	json_object_object_add(c, "warmup_calls", json_object_new_uint64(m->warmup_calls));
	json_object_object_add(c, "batches", json_object_new_uint64(m->batches));
	json_object_object_add(c, "code_places", json_object_new_uint64(m->code_places));
	json_object_object_add(c, "cpu", json_object_new_int(m->cpu));
	json_object_object_add(c, "seed", json_object_new_uint64(m->seed));
	json_object_object_add(c, "budget_s", num(m->budget_s));
	json_object_object_add(c, "time_s", num(m->time_s));
	json_object_object_add(o, "conditions", c);
	if (m->protocol.version)
		json_object_object_add(o, "protocol", measure_protocol_to_json(&m->protocol));
	json_object_object_add(o, "rounds", json_object_new_uint64(m->rounds));
	json_object_object_add(o, "quiet_rounds", json_object_new_uint64(m->quiet_rounds));
	json_object_object_add(o, "busy_rounds", json_object_new_uint64(m->busy_rounds));
	json_object_object_add(o, "quiet_tolerance", num(m->quiet_tolerance));
	json_object_object_add(o, "control", figure_to_json(&m->control));
	json_object_object_add(o, "same_code_gap_pct", num(m->same_code_gap_pct));
	for (i = 0; i < m->nr_rows; i++) {
		const struct mixmeas_row *r = &m->rows[i];
		json_object *e = json_object_new_object();

		jsonw_put_str(e, "name", r->name);
		json_object_object_add(e, "quiet", figure_to_json(&r->quiet));
		json_object_object_add(e, "busy", figure_to_json(&r->busy));
		json_object_object_add(e, "ns_per_call", num(r->ns_per_call));
		json_object_array_add(rows, e);
	}
	json_object_object_add(o, "policies", rows);
	if (m->when > 0)
		json_object_object_add(o, "when", num(m->when));
	if (m->sittings > 1) { /* pooled (mixmeas_pool.h): estimate's output, never a model's */
		json_object_object_add(o, "sittings", json_object_new_uint64(m->sittings));
		if (m->first_when > 0)
			json_object_object_add(o, "first_when", num(m->first_when));
	}
	return o;
}

/* A figure: numbers, or null for none (NAN); anything else is refused. */
static int figure_from_json(json_object *o, const char *key, struct mixmeas_figure *f)
{
	static const char *const keys[] = { "delta_pct", "ci_low", "ci_high" };
	double *dst[] = { &f->delta_pct, &f->ci_low, &f->ci_high };
	json_object *v;
	size_t i;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_object))
		return -EINVAL;
	for (i = 0; i < 3; i++) {
		int err = jsonr_num(v, keys[i], dst[i]);

		if (err == -ENOENT)
			*dst[i] = NAN;
		else if (err)
			return err;
	}
	/* A change of time is a ratio: it cannot fall by 100% or more. */
	for (i = 0; i < 3; i++)
		if (isfinite(*dst[i]) && *dst[i] <= -100)
			return -EINVAL;
	if (isfinite(f->ci_low) && isfinite(f->ci_high) && f->ci_low > f->ci_high)
		return -EINVAL;
	return 0;
}

static int strings_from_json(json_object *o, struct mixmeas *m)
{
	json_object *c;

	m->family = jsonr_str(o, "family");
	m->digest = jsonr_str(o, "digest");
	m->site = jsonr_str(o, "site"); /* absent: the whole mix (and in older models) */
	m->input = jsonr_str(o, "input");
	m->today = jsonr_str(o, "today");
	m->weight = jsonr_str(o, "weight");
	m->calls_note = jsonr_str(o, "calls_note");
	if (!m->family || !m->digest || !m->today || !m->weight)
		return -EINVAL;
	if (!json_object_object_get_ex(o, "conditions", &c) ||
	    !json_object_is_type(c, json_type_object))
		return -EINVAL;
	m->cache = jsonr_str(c, "cache");
	m->alignment = jsonr_str(c, "alignment");
	/* Measurements stored before distances were recorded placed the sides independently. */
	m->distance = json_object_object_get_ex(c, "distance", NULL) ? jsonr_str(c, "distance")
								     : strdup("not recorded");
	if (!m->cache || !m->alignment || !m->distance)
		return -EINVAL;
	if (jsonr_num(c, "lengths_exact_pct", &m->exact_pct) || !(m->exact_pct >= 0) ||
	    m->exact_pct > 100)
		m->exact_pct = NAN;
	m->ws_bytes = jsonr_u64_or(c, "working_set_bytes", 0);
	/* Stored before call order was replayed: every length drawn independently. */
	m->order_runs = jsonr_u64_or(c, "order_runs", 0);
	m->order_calls = m->order_runs ? jsonr_u64_or(c, "order_calls", 0) : 0;
	m->cold_bytes = jsonr_u64_or(c, "cold_bytes", 0);
	m->chunk_calls = jsonr_u64_or(c, "chunk_calls", 0);
	m->warmup_calls = jsonr_u64_or(c, "warmup_calls", 0);
	m->batches = jsonr_u64_or(c, "batches", 1);
	m->code_places = jsonr_u64_or(c, "code_places", 0);
	m->cpu = (int)jsonr_u64_or(c, "cpu", (uint64_t)-1);
	m->seed = jsonr_u64_or(c, "seed", 0);
	if (jsonr_num(c, "budget_s", &m->budget_s))
		m->budget_s = NAN;
	if (jsonr_num(c, "time_s", &m->time_s))
		m->time_s = NAN;
	return 0;
}

static int rows_from_json(json_object *o, struct mixmeas *m)
{
	json_object *a;
	size_t i, n;

	if (!json_object_object_get_ex(o, "policies", &a) ||
	    !json_object_is_type(a, json_type_array))
		return -EINVAL;
	n = json_object_array_length(a);
	if (!n || n > MIXMEAS_MAX_ROWS)
		return -EINVAL;
	m->rows = calloc(n, sizeof(*m->rows));
	if (!m->rows)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i), *name;
		struct mixmeas_row *r = &m->rows[i];

		if (!json_object_is_type(e, json_type_object) ||
		    !json_object_object_get_ex(e, "name", &name) ||
		    !json_object_is_type(name, json_type_string) ||
		    json_object_get_string_len(name) >= (int)sizeof(r->name) ||
		    figure_from_json(e, "quiet", &r->quiet) ||
		    figure_from_json(e, "busy", &r->busy))
			return -EINVAL;
		snprintf(r->name, sizeof(r->name), "%s", json_object_get_string(name));
		/* The stored name is the policy's serialisation: parsed back into its key. */
		if (policy_key_parse(r->name, &r->key) || mixmeas_row_find(m, &r->key))
			return -EINVAL; /* not a policy, or one twice (the rows so far: m->nr_rows) */
		if (jsonr_num(e, "ns_per_call", &r->ns_per_call))
			r->ns_per_call = NAN;
		m->nr_rows = i + 1;
	}
	return 0;
}

int mixmeas_from_json(json_object *o, const char *where, struct mixmeas *m)
{
	json_object *p;
	int err;

	memset(m, 0, sizeof(*m));
	err = json_object_is_type(o, json_type_object) ? 0 : -EINVAL;
	if (!err)
		err = strings_from_json(o, m);
	/* Measurements before the protocol was recorded: version 0, pooled only with their like. */
	if (!err && json_object_object_get_ex(o, "protocol", &p) &&
	    measure_protocol_from_json(p, where, &m->protocol)) {
		mixmeas_free(m);
		return -EINVAL;
	}
	if (!err &&
	    (jsonr_u64(o, "rounds", &m->rounds) || jsonr_u64(o, "quiet_rounds", &m->quiet_rounds) ||
	     jsonr_u64(o, "busy_rounds", &m->busy_rounds) ||
	     m->quiet_rounds + m->busy_rounds != m->rounds))
		err = -EINVAL;
	/* Cost models before the ladder (MIXMEAS_QUIET_LADDER) used its widest window alone. */
	if (!err) {
		int e = jsonr_num(o, "quiet_tolerance", &m->quiet_tolerance);

		if (e == -ENOENT)
			m->quiet_tolerance = MIXMEAS_QUIET_TOLERANCE;
		else if (e || !(m->quiet_tolerance > 0) || !isfinite(m->quiet_tolerance))
			err = -EINVAL;
	}
	if (!err)
		err = figure_from_json(o, "control", &m->control);
	if (!err && jsonr_num(o, "same_code_gap_pct", &m->same_code_gap_pct))
		m->same_code_gap_pct = NAN;
	if (!err)
		err = rows_from_json(o, m);
	/* Cost models before sittings were pooled recorded no time: 0, pooled in file order. */
	if (!err && (jsonr_num(o, "when", &m->when) || !(m->when > 0) || !isfinite(m->when)))
		m->when = 0;
	m->sittings = 1;
	m->first_when = m->when;
	if (err) {
		if (err == -EINVAL)
			p_err("%s: a \"paired\" entry is incomplete or out of range (family, "
			      "digest, "
			      "today, weight, conditions, rounds, a positive quiet_tolerance, "
			      "control and policies with quiet and busy figures above -100%%)",
			      where);
		mixmeas_free(m);
	}
	return err;
}
