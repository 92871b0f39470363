// SPDX-License-Identifier: GPL-2.0
/* profile_dispatch.c: meta.dispatch: the copy code a profile's kernel ran, to JSON and back */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "profile_dispatch.h"

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

struct profile_dispatch *profile_dispatch_from(const struct dispatch *d)
{
	struct profile_dispatch *pd = calloc(1, sizeof(*pd));
	size_t r, i;

	if (!pd)
		return NULL;
	for (r = 0; r < CF_NR_ROUTINES; r++) {
		const struct dispatch_entry *e = &d->e[r];
		struct profile_dispatch_entry *o;

		if (!e->routine || !e->nr_rows)
			continue;
		o = &pd->e[pd->nr++];
		o->routine = strdup(e->routine);
		o->source = dup_or_null(e->source);
		for (i = 0; i < e->nr_rows && i < DISPATCH_MAX_ROWS; i++) {
			o->rows[i].min = e->rows[i].min;
			o->rows[i].max = e->rows[i].max;
			o->rows[i].code = dup_or_null(e->rows[i].code);
			o->rows[i].string_op = dup_or_null(e->rows[i].string_op);
		}
		o->nr_rows = i;
	}
	return pd;
}

struct profile_dispatch *profile_dispatch_derive(const struct host_meta *m)
{
	struct profile_dispatch *pd;
	struct dispatch d = { 0 };
	size_t r;

	/* Unknown flags (import-perf of another host's data) derive nothing, not "no flags". */
	if (!m || m->cpu_flags_unknown || !dispatch_parse_release(m->kernel, &d.major, &d.minor))
		return NULL;
	dispatch_cpu_from_meta(m, d.major, d.minor, &d.cpu);
	dispatch_from_table(d.major, d.minor, &d.cpu, &d);
	pd = profile_dispatch_from(&d);
	dispatch_free(&d);
	for (r = 0; pd && r < pd->nr; r++) {
		free(pd->e[r].source);
		pd->e[r].source = strdup("derived");
	}
	return pd;
}

void profile_dispatch_free(struct profile_dispatch *pd)
{
	size_t r, i;

	if (!pd)
		return;
	for (r = 0; r < pd->nr; r++) {
		free(pd->e[r].routine);
		free(pd->e[r].source);
		for (i = 0; i < pd->e[r].nr_rows; i++) {
			free(pd->e[r].rows[i].code);
			free(pd->e[r].rows[i].string_op);
		}
	}
	free(pd);
}

const struct profile_dispatch_entry *profile_dispatch_find(const struct profile_dispatch *pd,
							   const char *routine)
{
	size_t r;

	for (r = 0; pd && r < pd->nr; r++)
		if (pd->e[r].routine && !strcmp(pd->e[r].routine, routine))
			return &pd->e[r];
	return NULL;
}

void profile_dispatch_summary(const struct profile_dispatch_entry *e, char *buf, size_t len)
{
	size_t i, n = 0;
	int k;

	buf[0] = '\0';
	if (e->nr_rows == 1) {
		snprintf(buf, len, "%s", e->rows[0].code ?: "?");
		return;
	}
	for (i = 0; i < e->nr_rows && n < len; i++) {
		const struct profile_dispatch_row *r = &e->rows[i];

		if (r->max == DISPATCH_NO_MAX)
			k = snprintf(buf + n, len - n, "%s>= %llu: %s", i ? "; " : "",
				     (unsigned long long)r->min, r->code ?: "?");
		else
			k = snprintf(buf + n, len - n, "%s%llu-%llu: %s", i ? "; " : "",
				     (unsigned long long)r->min, (unsigned long long)r->max,
				     r->code ?: "?");
		if (k < 0)
			break;
		n += (size_t)k;
	}
}

void profile_dispatch_entry_view(const struct profile_dispatch_entry *e, struct dispatch_entry *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->routine = e->routine;
	out->source = e->source;
	for (i = 0; i < e->nr_rows; i++) {
		out->rows[i].min = e->rows[i].min;
		out->rows[i].max = e->rows[i].max;
		out->rows[i].code = e->rows[i].code;
		out->rows[i].string_op = e->rows[i].string_op;
	}
	out->nr_rows = e->nr_rows;
}

json_object *profile_dispatch_to_json(const struct profile_dispatch *pd)
{
	json_object *a = json_object_new_array();
	size_t r, i;

	for (r = 0; r < pd->nr; r++) {
		const struct profile_dispatch_entry *e = &pd->e[r];
		json_object *o = json_object_new_object(), *rows = json_object_new_array();

		jsonw_put_str(o, "routine", e->routine);
		jsonw_put_str(o, "source", e->source);
		for (i = 0; i < e->nr_rows; i++) {
			json_object *row = json_object_new_object();

			json_object_object_add(row, "min", json_object_new_uint64(e->rows[i].min));
			if (e->rows[i].max != DISPATCH_NO_MAX)
				json_object_object_add(row, "max",
						       json_object_new_uint64(e->rows[i].max));
			jsonw_put_str(row, "code", e->rows[i].code);
			jsonw_put_str(row, "string_op", e->rows[i].string_op);
			json_object_array_add(rows, row);
		}
		json_object_object_add(o, "rows", rows);
		json_object_array_add(a, o);
	}
	return a;
}

struct profile_dispatch *profile_dispatch_from_json(json_object *arr)
{
	struct profile_dispatch *pd;
	size_t r, i, n;

	if (!json_object_is_type(arr, json_type_array))
		return NULL;
	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return NULL;
	n = json_object_array_length(arr);
	for (r = 0; r < n && pd->nr < CF_NR_ROUTINES; r++) {
		json_object *o = json_object_array_get_idx(arr, r), *rows;
		struct profile_dispatch_entry *e;
		char *routine = jsonr_str(o, "routine");

		if (!routine || !json_object_object_get_ex(o, "rows", &rows) ||
		    !json_object_is_type(rows, json_type_array) ||
		    !json_object_array_length(rows)) {
			free(routine);
			continue;
		}
		e = &pd->e[pd->nr++];
		e->routine = routine;
		e->source = jsonr_str(o, "source");
		for (i = 0; i < json_object_array_length(rows) && e->nr_rows < DISPATCH_MAX_ROWS;
		     i++) {
			json_object *row = json_object_array_get_idx(rows, i);
			struct profile_dispatch_row *w = &e->rows[e->nr_rows];

			w->code = jsonr_str(row, "code");
			if (!w->code)
				continue;
			w->min = jsonr_u64_or(row, "min", 0);
			w->max = jsonr_u64_or(row, "max", DISPATCH_NO_MAX);
			w->string_op = jsonr_str(row, "string_op");
			e->nr_rows++;
		}
		if (!e->nr_rows) {
			free(e->routine);
			free(e->source);
			pd->nr--;
		}
	}
	if (!pd->nr) {
		free(pd);
		return NULL;
	}
	return pd;
}
