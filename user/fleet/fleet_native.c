// SPDX-License-Identifier: GPL-2.0
/* fleet_native.c: native histograms' increase per series (now less R ago), summed per site */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fleet_native.h"
#include "lib/counter_map.h"
#include "lib/log.h"
#include "prom_client.h"

static int by_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether @name is in the comma-separated @list. */
static bool listed(const char *name, const char *list)
{
	size_t n = strlen(name);

	while (*list) {
		size_t k = strcspn(list, ",");

		if (k == n && !strncmp(list, name, n))
			return true;
		list += k + !!list[k];
	}
	return false;
}

/*
 * A series' identity: its labels but __name__ and those in @leave_out, sorted by name,
 * joined. NULL on no memory.
 */
static char *series_key_but(json_object *metric, const char *leave_out)
{
	const char *names[64];
	size_t n = 0, len = 1, i;
	char *key, *p;

	json_object_object_foreach(metric, k, v)
	{
		if (strcmp(k, "__name__") && !listed(k, leave_out) && n < 64) {
			names[n++] = k;
			len += strlen(k) + strlen(json_object_get_string(v)) + 2;
		}
	}
	qsort(names, n, sizeof(*names), by_key);
	key = malloc(len);
	for (i = 0, p = key; key && i < n; i++) {
		json_object *v;

		json_object_object_get_ex(metric, names[i], &v);
		p += sprintf(p, "%s\x1f%s\x1e", names[i], json_object_get_string(v));
	}
	if (key)
		*p = 0;
	return key;
}

static char *series_key(json_object *metric)
{
	return series_key_but(metric, "");
}

static json_object *metric_of(json_object *e)
{
	json_object *m = NULL;

	json_object_object_get_ex(e, "metric", &m);
	return m;
}

/* Series key -> element index + 1 of @v; -EINVAL when one is there twice (printed). */
static int index_answer(json_object *v, struct counter_map *idx, const char *what)
{
	size_t i, n = v ? json_object_array_length(v) : 0;

	for (i = 0; i < n; i++) {
		json_object *m = metric_of(json_object_array_get_idx(v, i));
		char *key = series_key(m);
		struct counter_map_ent *e = key ? counter_map_get(idx, key) : NULL;

		free(key);
		if (!e)
			return -ENOMEM;
		if (e->value) {
			p_err("Prometheus's %s: the series %s is there twice", what,
			      json_object_to_json_string_ext(
				      m, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
			return -EINVAL;
		}
		e->value = i + 1;
	}
	return 0;
}

static json_object *find(json_object *v, const struct counter_map *idx, const char *key)
{
	const struct counter_map_ent *e = counter_map_find(idx, key);

	return e ? json_object_array_get_idx(v, e->value - 1) : NULL;
}

/* The counts of element @e's histogram; NULL, or the fault (printed with the series). */
static int counts_of(json_object *e, double *c, const char *what)
{
	json_object *h = NULL;
	const char *why;

	if (!json_object_object_get_ex(e, "histogram", &h)) {
		why = "a float where a native histogram was asked for";
	} else {
		why = fleet_native_parse(json_object_array_get_idx(h, 1), c);
	}
	if (!why)
		return 0;
	p_err("Prometheus's %s series %s: %s", what,
	      json_object_to_json_string_ext(metric_of(e), JSON_C_TO_STRING_PLAIN |
								   JSON_C_TO_STRING_NOSLASHESCAPE),
	      why);
	return -EINVAL;
}

bool fleet_native_needs_increase(json_object *now, json_object *then, json_object *resets)
{
	struct counter_map idx = { 0 };
	size_t i, n = then ? json_object_array_length(then) : 0;
	bool gone = false;

	if (resets && json_object_array_length(resets))
		return true;
	if (index_answer(now, &idx, "native histograms") < 0)
		gone = true; /* a fault that combining will say */
	for (i = 0; !gone && i < n; i++) {
		char *key = series_key(metric_of(json_object_array_get_idx(then, i)));

		gone = !key || !counter_map_find(&idx, key);
		free(key);
	}
	counter_map_free(&idx);
	return gone;
}

/* The increase of the series of key @key into @c (zeros when it has none to give). */
static int increase_of(const char *key, json_object *e_now, json_object *then,
		       const struct counter_map *ti, json_object *inc, const struct counter_map *ii,
		       bool reset, double *c, const char *what)
{
	double was[FLEET_NR_NATIVE];
	json_object *e_then = find(then, ti, key), *e_inc;
	size_t k;
	int err;

	if (e_now && !reset) {
		err = counts_of(e_now, c, what);
		if (err || !e_then)
			return err; /* started within the range: from zero */
		err = counts_of(e_then, was, what);
		for (k = 0; !err && k < FLEET_NR_NATIVE; k++) {
			if (c[k] < was[k]) {
				p_err("Prometheus's %s series %s: a bucket holds fewer than %s "
				      "ago, "
				      "yet resets() saw no reset",
				      what,
				      json_object_to_json_string_ext(
					      metric_of(e_now),
					      JSON_C_TO_STRING_PLAIN |
						      JSON_C_TO_STRING_NOSLASHESCAPE),
				      "the range's start");
				return -EINVAL;
			}
			c[k] -= was[k];
		}
		return err;
	}
	e_inc = find(inc, ii, key);
	if (!e_inc) {
		memset(c, 0, FLEET_NR_NATIVE * sizeof(*c));
		return 0;
	}
	return counts_of(e_inc, c, what);
}

/*
 * @metric with the cpu_model and kernel of its agent's info in @join (indexed by the target's
 * labels in @ji): a new object (json_object_put), or NULL when the agent has none.
 */
static json_object *joined(json_object *metric, json_object *join, const struct counter_map *ji)
{
	char *key = series_key_but(metric, FLEET_SITE_ONLY "," FLEET_INFO_ONLY);
	json_object *info = key ? find(join, ji, key) : NULL, *m, *v;
	static const char *const take[] = { "cpu_model", "kernel" };
	size_t i;

	free(key);
	if (!info)
		return NULL;
	m = json_object_new_object();
	json_object_object_foreach(metric, k, val)
	{
		if (m && !listed(k, FLEET_INFO_ONLY))
			json_object_object_add(m, k, json_object_get(val));
	}
	for (i = 0; m && i < 2; i++)
		if (json_object_object_get_ex(metric_of(info), take[i], &v))
			json_object_object_add(m, take[i], json_object_get(v));
	return m;
}

/* The join's index: each agent by its target's labels (its info's labels but its own). */
static int index_join(json_object *join, struct counter_map *ji)
{
	size_t i, n = join ? json_object_array_length(join) : 0;

	for (i = 0; i < n; i++) {
		char *key = series_key_but(metric_of(json_object_array_get_idx(join, i)),
					   FLEET_INFO_ONLY);
		struct counter_map_ent *e = key ? counter_map_get(ji, key) : NULL;

		free(key);
		if (!e)
			return -ENOMEM;
		e->value = i + 1; /* topk gives one per agent; a second one would win: fine */
	}
	return 0;
}

int fleet_native_combine(struct fleet_series *fs, enum fleet_kind kind, json_object *now,
			 json_object *then, json_object *resets, json_object *increase,
			 json_object *join)
{
	const char *what =
		kind == FLEET_CALLS ? "native calls histogram" : "native bytes histogram";
	struct counter_map ni = { 0 }, ti = { 0 }, ri = { 0 }, ii = { 0 }, done = { 0 }, ji = { 0 };
	json_object *lists[2] = { now, then };
	int err, l;
	size_t i;

	err = index_answer(now, &ni, what);
	if (!err)
		err = index_answer(then, &ti, what);
	if (!err)
		err = index_answer(resets, &ri, what);
	if (!err)
		err = index_answer(increase, &ii, what);
	if (!err)
		err = index_join(join, &ji);
	/* Every series there now, then every one gone since (only in the offset answer). */
	for (l = 0; l < 2 && !err; l++)
		for (i = 0; !err && lists[l] && i < json_object_array_length(lists[l]); i++) {
			json_object *e = json_object_array_get_idx(lists[l], i);
			char *key = series_key(metric_of(e));
			struct counter_map_ent *d = key ? counter_map_get(&done, key) : NULL;
			double c[FLEET_NR_NATIVE];

			if (!d) {
				err = -ENOMEM;
			} else if (!d->value++) {
				json_object *m = joined(metric_of(e), join, &ji);

				err = m ? increase_of(key, l ? NULL : e, then, &ti, increase, &ii,
						      counter_map_find(&ri, key) != NULL, c, what)
					: 0; /* no info of its agent: left out, as in PromQL's join */
				if (m && !err)
					err = fleet_series_add_native(fs, m, kind, c);
				json_object_put(m);
			}
			free(key);
		}
	counter_map_free(&ni);
	counter_map_free(&ti);
	counter_map_free(&ri);
	counter_map_free(&ii);
	counter_map_free(&done);
	counter_map_free(&ji);
	return err;
}

int fleet_native_fetch(struct fleet_series *fs, const struct fleet_query *q,
		       const struct fleet_selector *sel, const char *m, enum fleet_kind kind,
		       size_t *found)
{
	const char *h = sel->hist, *r = q->range;
	json_object *a[5] = { NULL };
	char *text[5] = { NULL };
	int err = -ENOMEM, i;

	if (asprintf(&text[0], "%s%s", m, h) < 0 ||
	    asprintf(&text[1], "%s%s offset %s", m, h, r) < 0 ||
	    asprintf(&text[2], "resets(%s%s[%s]) > 0", m, h, r) < 0 ||
	    asprintf(&text[3], "increase(%s%s[%s])", m, h, r) < 0 ||
	    asprintf(&text[4], FLEET_INFO_EXPR("%s", "%s"), sel->info, r) < 0)
		goto out;
	for (err = 0, i = 0; i < 3 && !err; i++)
		err = prom_query(q->url, text[i], &a[i]);
	if (!err && !json_object_array_length(a[0]) && !json_object_array_length(a[1]))
		goto out; /* no native histograms here */
	if (!err && fleet_native_needs_increase(a[0], a[1], a[2]))
		err = prom_query(q->url, text[3], &a[3]);
	if (!err)
		err = prom_query(q->url, text[4], &a[4]);
	if (!err)
		err = fleet_native_combine(fs, kind, a[0], a[1], a[2], a[3], a[4]);
	if (!err)
		*found += json_object_array_length(a[0]) + json_object_array_length(a[1]);
out:
	for (i = 0; i < 5; i++) {
		json_object_put(a[i]);
		free(text[i]);
	}
	return err;
}
