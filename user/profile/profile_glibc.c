// SPDX-License-Identifier: GPL-2.0
/* profile_glibc.c: meta.glibc, the glibc thresholds a recorded process copied with */
#include <errno.h>
#include <stdio.h>
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

	char v[32];

	if (g->major) {
		snprintf(v, sizeof(v), "%u.%u", g->major, g->minor);
		jsonw_put_str(o, "version", v);
	}
	jsonw_put_str(o, "release", g->release);
	jsonw_put_str(o, "build_id", g->build_id);
	jsonw_put_str(o, "libc", g->libc);
	jsonw_put_str(o, "root", g->root);
	jsonw_put_str(o, "ldso", g->ldso);
	jsonw_put_str(o, "tunables", g->tunables);
	if (!g->rep_movsb_threshold.present)
		return o;
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

/* "2.41" -> 2, 41; anything else is refused. */
static int version_from_json(json_object *o, struct profile_glibc *g)
{
	char *v = jsonr_str(o, "version"), end;
	int ok;

	if (!v)
		return json_object_object_get_ex(o, "version", NULL) ? -1 : 0;
	ok = sscanf(v, "%u.%u%c", &g->major, &g->minor, &end) == 2 && g->major;
	free(v);
	return ok ? 0 : -1;
}

struct profile_glibc *profile_glibc_from_json(json_object *o, const char *where)
{
	struct profile_glibc *g = calloc(1, sizeof(*g));
	bool has_movsb, has_stosb, thresholds;

	if (!g)
		return NULL;
	has_movsb = json_object_is_type(o, json_type_object) &&
		    json_object_object_get_ex(o, "rep_movsb_threshold", NULL);
	has_stosb = json_object_is_type(o, json_type_object) &&
		    json_object_object_get_ex(o, "rep_stosb_threshold", NULL);
	thresholds = has_movsb || has_stosb;
	if (!json_object_is_type(o, json_type_object) || version_from_json(o, g) ||
	    (!thresholds && !g->major) ||
	    (thresholds && (tunable_from_json(o, "rep_movsb_threshold", &g->rep_movsb_threshold,
					      &g->movsb_default) ||
			    tunable_from_json(o, "rep_stosb_threshold", &g->rep_stosb_threshold,
					      &g->stosb_default)))) {
		p_err("%s: meta.glibc needs a version (\"2.41\") or rep_movsb_threshold and "
		      "rep_stosb_threshold, each with value, min, max and default (min <= value "
		      "<= max, default <= max)",
		      where);
		free(g);
		return NULL;
	}
	g->ldso = jsonr_str(o, "ldso");
	g->tunables = jsonr_str(o, "tunables");
	g->release = jsonr_str(o, "release");
	g->build_id = jsonr_str(o, "build_id");
	g->libc = jsonr_str(o, "libc");
	g->root = jsonr_str(o, "root");
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
	d->release = g->release ? strdup(g->release) : NULL;
	d->build_id = g->build_id ? strdup(g->build_id) : NULL;
	d->libc = g->libc ? strdup(g->libc) : NULL;
	d->root = g->root ? strdup(g->root) : NULL;
	return d;
}

void profile_glibc_free(struct profile_glibc *g)
{
	if (!g)
		return;
	free(g->ldso);
	free(g->tunables);
	free(g->release);
	free(g->build_id);
	free(g->libc);
	free(g->root);
	free(g);
}
