// SPDX-License-Identifier: GPL-2.0
/* profile_glibc.c: meta.glibc, the glibc thresholds a recorded process copied with */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/log.h"
#include "profile_glibc.h"

static json_object *tunable_to_json(const struct glibc_tunable *t, uint64_t dflt)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "value", json_object_new_uint64(t->value));
	json_object_object_add(o, "min", json_object_new_uint64(t->min));
	json_object_object_add(o, "max", json_object_new_uint64(t->max));
	json_object_object_add(o, "default", json_object_new_uint64(dflt));
	return o;
}

json_object *profile_glibc_to_json(const struct profile_glibc *g)
{
	json_object *o = json_object_new_object();

	jsonw_put_str(o, "ldso", g->ldso);
	jsonw_put_str(o, "tunables", g->tunables);
	json_object_object_add(o, "rep_movsb_threshold",
			       tunable_to_json(&g->rep_movsb_threshold, g->movsb_default));
	json_object_object_add(o, "rep_stosb_threshold",
			       tunable_to_json(&g->rep_stosb_threshold, g->stosb_default));
	return o;
}

/* One field: 2^64 - 1 (glibc's "no limit", json-c's saturation) is kept as that. */
static int u64_field(json_object *o, const char *key, uint64_t *out)
{
	int err = jsonr_u64(o, key, out);

	if (err == -ERANGE)
		*out = UINT64_MAX;
	return err == -ERANGE ? 0 : err;
}

/* A threshold as written: value, min, max, default; min <= value, default <= max. */
static int tunable_from_json(json_object *o, const char *key, struct glibc_tunable *t,
			     uint64_t *dflt)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_object) ||
	    u64_field(v, "value", &t->value) || u64_field(v, "min", &t->min) ||
	    u64_field(v, "max", &t->max) || u64_field(v, "default", dflt))
		return -1;
	if (t->min > t->max || t->value > t->max || *dflt > t->max)
		return -1;
	t->present = true;
	return 0;
}

struct profile_glibc *profile_glibc_from_json(json_object *o, const char *where)
{
	struct profile_glibc *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	if (!json_object_is_type(o, json_type_object) ||
	    tunable_from_json(o, "rep_movsb_threshold", &g->rep_movsb_threshold,
			      &g->movsb_default) ||
	    tunable_from_json(o, "rep_stosb_threshold", &g->rep_stosb_threshold,
			      &g->stosb_default)) {
		p_err("%s: meta.glibc needs rep_movsb_threshold and rep_stosb_threshold, each with "
		      "value, min, max and default (min <= value <= max, default <= max)",
		      where);
		free(g);
		return NULL;
	}
	g->ldso = jsonr_str(o, "ldso");
	g->tunables = jsonr_str(o, "tunables");
	return g;
}

struct profile_glibc *profile_glibc_dup(const struct profile_glibc *g)
{
	struct profile_glibc *d;

	if (!g || !(d = malloc(sizeof(*d))))
		return NULL;
	*d = *g;
	d->ldso = g->ldso ? strdup(g->ldso) : NULL;
	d->tunables = g->tunables ? strdup(g->tunables) : NULL;
	return d;
}

void profile_glibc_free(struct profile_glibc *g)
{
	if (!g)
		return;
	free(g->ldso);
	free(g->tunables);
	free(g);
}
