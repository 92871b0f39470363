// SPDX-License-Identifier: GPL-2.0
/* fleet_partial.c: the sites of a fleet that stopped counting within the range, said per site */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fleet_partial.h"
#include "fleet_selector.h"
#include "lib/log.h"
#include "prom_client.h"

#define FAMILY_STATE "copyprof_site_state_since_seconds"

double fleet_range_seconds(const char *s)
{
	static const struct {
		const char *unit;
		double s;
	} units[] = { { "ms", 1e-3 }, { "s", 1 },	  { "m", 60 },	       { "h", 3600 },
		      { "d", 86400 }, { "w", 7 * 86400 }, { "y", 365 * 86400 } };
	double total = 0;
	char *end;
	size_t i;

	while (s && *s) {
		double v = strtod(s, &end);

		if (end == s)
			return 0;
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strncmp(end, units[i].unit, strlen(units[i].unit)))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return 0;
		total += v * units[i].s;
		s = end + strlen(units[i].unit);
	}
	return total;
}

/* @hist ("{...}" or "") with @matcher added. */
static char *with_matcher(const char *hist, const char *matcher)
{
	char *s = NULL;
	size_t n = strlen(hist);

	if (!n)
		return asprintf(&s, "{%s}", matcher) < 0 ? NULL : s;
	return asprintf(&s, "%.*s,%s}", (int)(n - 1), hist, matcher) < 0 ? NULL : s;
}

/* The state series of @fn over the range, joined to their agents' info as the histograms are. */
static json_object *ask(const struct fleet_query *q, const struct fleet_selector *sel,
			const char *fn, const char *matcher)
{
	json_object *res = NULL;
	char *m = with_matcher(sel->hist, matcher), *query = NULL;

	if (m &&
	    asprintf(&query,
		     "%s(" FAMILY_STATE "%s[%s]) * ignoring (" FLEET_SITE_ONLY "," FLEET_INFO_ONLY
		     ",state) group_left (kernel) " FLEET_INFO_EXPR("%s", "%s"),
		     fn, m, q->range, sel->info, q->range) >= 0 &&
	    prom_query(q->url, query, &res))
		res = NULL;
	free(m);
	free(query);
	return res;
}

static json_object *metric_of(json_object *e)
{
	json_object *m = NULL;

	json_object_object_get_ex(e, "metric", &m);
	return m;
}

/* Its labels but __name__ and state, as JSON (json-c keeps Prometheus's sorted order). */
static char *where_of(json_object *metric)
{
	json_object *o = json_object_new_object();
	char *s = NULL;

	json_object_object_foreach(metric, k, v)
	{
		if (o && strcmp(k, "__name__") && strcmp(k, "state"))
			json_object_object_add(o, k, json_object_get(v));
	}
	if (o)
		s = strdup(json_object_to_json_string_ext(
			o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return s;
}

static double value_at(json_object *e, size_t i)
{
	json_object *v = NULL;

	json_object_object_get_ex(e, "value", &v);
	return strtod(json_object_get_string(json_object_array_get_idx(v, i)) ?: "nan", NULL);
}

/* When the site of @where started counting within the range (min_over_time), or NAN. */
static double counting_since(json_object *counting, const char *where)
{
	size_t i, n = counting ? json_object_array_length(counting) : 0;
	double v = NAN;

	for (i = 0; i < n && isnan(v); i++) {
		json_object *e = json_object_array_get_idx(counting, i);
		char *w = where_of(metric_of(e));

		if (w && !strcmp(w, where))
			v = value_at(e, 1);
		free(w);
	}
	return v;
}

static void say(const struct fleet_partial *p, const char *range)
{
	char when[32];
	time_t t = (time_t)p->since;
	struct tm tm;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&t, &tm));
	p_warn("site %s counted %.0f s of the last %s (%s since %s): its calls are partial",
	       p->where, p->counted_s, range, p->state, when);
}

static int add(struct fleet_partials *out, json_object *e, json_object *counting, double range_s,
	       const char *range)
{
	struct fleet_partial *v = realloc(out->v, (out->nr + 1) * sizeof(*v)), *p;
	json_object *st = NULL;
	double now = value_at(e, 0), from = now - range_s, began;

	if (!v)
		return -ENOMEM;
	out->v = v;
	p = &v[out->nr];
	memset(p, 0, sizeof(*p));
	json_object_object_get_ex(metric_of(e), "state", &st);
	p->where = where_of(metric_of(e));
	p->state = strdup(json_object_get_string(st) ?: "?");
	if (!p->where || !p->state) {
		free(p->where);
		free(p->state);
		return -ENOMEM;
	}
	out->nr++;
	p->since = value_at(e, 1);
	p->range_s = range_s;
	began = counting_since(counting, p->where);
	if (!isnan(began) && began > from)
		from = began;
	p->counted_s = p->since > from ? fmin(p->since, now) - from : 0;
	say(p, range);
	return 0;
}

int fleet_partial_fetch(const struct fleet_query *q, struct fleet_partials *out)
{
	struct fleet_selector sel = { 0 };
	json_object *left = NULL, *counting = NULL;
	double range_s = fleet_range_seconds(q->range);
	char why[160];
	size_t i, n;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (fleet_selector_split(q->selector ?: "{}", &sel, why, sizeof(why)))
		return 0; /* refused before, by the histograms' fetch */
	left = ask(q, &sel, "last_over_time", "state!=\"counting\"");
	if (!left)
		p_warn("the sites' states (" FAMILY_STATE ") could not be read: sites that "
		       "stopped counting in the range are not named");
	else if (json_object_array_length(left))
		counting = ask(q, &sel, "min_over_time", "state=\"counting\"");
	n = left ? json_object_array_length(left) : 0;
	for (i = 0; i < n && !err; i++)
		err = add(out, json_object_array_get_idx(left, i), counting, range_s, q->range);
	json_object_put(left);
	json_object_put(counting);
	fleet_selector_free(&sel);
	return err;
}

json_object *fleet_partials_to_json(const struct fleet_partials *p)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < p->nr; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "site", json_tokener_parse(p->v[i].where));
		json_object_object_add(o, "state", json_object_new_string(p->v[i].state));
		json_object_object_add(o, "since", json_object_new_double(p->v[i].since));
		json_object_object_add(
			o, "counted_s",
			json_object_new_double(round(p->v[i].counted_s * 1e3) / 1e3));
		json_object_object_add(o, "range_s", json_object_new_double(p->v[i].range_s));
		json_object_array_add(a, o);
	}
	return a;
}

void fleet_partials_free(struct fleet_partials *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		free(p->v[i].where);
		free(p->v[i].state);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}
