// SPDX-License-Identifier: GPL-2.0
/* profile_json_read.c: a profile's JSON read and checked, site by site as the file streams */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lib/jsonr.h"
#include "lib/jsonr_stream.h"
#include "lib/log.h"
#include "profile_share.h"
#include "lib/machine_json.h"
#include "profile.h"
#include "profile_args.h"
#include "profile_family.h"
#include "profile_site_json.h"

/* A duration in seconds: absent (0), or a finite number >= 0. */
static int duration_from_json(json_object *o, double *out, const char *name, const char *where)
{
	int err = jsonr_num(o, "duration_s", out);

	if (err == -ENOENT)
		return 0;
	if (err || *out < 0) {
		p_err("%s: %s\"duration_s\" must be a number of seconds >= 0", name, where);
		return -EINVAL;
	}
	return 0;
}

static int groups_from_json(json_object *arr, struct profile *p, const char *name)
{
	size_t i, n = json_object_array_length(arr);

	for (i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *v;
		struct profile_group *g;
		uint64_t n;

		if (!json_object_is_type(o, json_type_object)) {
			p_err("%s: groups[%zu] is not an object", name, i);
			return -EINVAL;
		}
		g = profile_add_group(p);
		if (!g)
			return -ENOMEM;
		g->kernel = jsonr_str(o, "kernel");
		g->cpu_model = jsonr_str(o, "cpu_model");
		g->cpu_flags = jsonr_strv(o, "cpu_flags", &g->nr_cpu_flags);
		g->cpu_flags_unknown = json_object_object_get_ex(o, "cpu_flags", &v) && !v;
		g->hosts = jsonr_strv(o, "hosts", &g->nr_hosts);
		if (jsonr_u64(o, "profiles", &g->profiles))
			g->profiles = 1;
		(void)v;
		if (duration_from_json(o, &g->duration_s, name, "a group's "))
			return -EINVAL;
		if (!jsonr_u64(o, "sample_hz", &n))
			g->sample_hz = (uint32_t)n;
		jsonr_u64(o, "total_samples", &g->total_samples);
		jsonr_u64(o, "idle_samples", &g->idle_samples);
	}
	return 0;
}

/* meta.cpu_s and probe_cpu_s: both absent (a profile before them, a merge), or both numbers >= 0. */
static int cpu_from_json(json_object *o, struct host_meta *m, const char *name)
{
	int a = jsonr_num(o, "cpu_s", &m->cpu_s), b = jsonr_num(o, "probe_cpu_s", &m->probe_cpu_s);

	if (a == -ENOENT && b == -ENOENT)
		return 0;
	if (a || b || !(m->cpu_s >= 0) || !(m->probe_cpu_s >= 0) || !isfinite(m->cpu_s) ||
	    !isfinite(m->probe_cpu_s)) {
		p_err("%s: meta \"cpu_s\" and \"probe_cpu_s\" go together, each a number of "
		      "seconds >= 0",
		      name);
		return -EINVAL;
	}
	m->cpu_known = true;
	return 0;
}

static int meta_from_json(json_object *o, struct host_meta *m, const char *name)
{
	m->tool_version = jsonr_str(o, "tool_version");
	m->kernel = jsonr_str(o, "kernel");
	m->cpu_model = jsonr_str(o, "cpu_model");
	m->hostname = jsonr_str(o, "hostname");
	m->start = jsonr_str(o, "start");
	m->command = jsonr_str(o, "command");
	m->ended_by = jsonr_str(o, "ended_by");
	machine_json_get(o, m);
	return duration_from_json(o, &m->duration_s, name, "meta ") ?: cpu_from_json(o, m, name)
									 ?: copy_share_from_json(o, &m->copy_share, name);
}

/* A profile being read: what was seen so far, for the checks that span its members. */
struct reading {
	struct profile *p;
	const char *name; /* the file, for messages */
	int arg_base;	  /* how its len_arg count (profile_args.h): 1 until a meta says */
	unsigned int seen;
	size_t nr_sites; /* elements of "sites" so far, built or not */
	/* Sites read before "groups" (another writer's order): their group, checked at the end. */
	struct late_group {
		uint32_t site;
		uint64_t group;
	} * late;
	size_t nr_late;
};

enum { SEEN_FORMAT = 1, SEEN_VERSION = 2, SEEN_META = 4, SEEN_GROUPS = 8, SEEN_SITES = 16 };

static int group_missing(const struct reading *r, uint32_t site, uint64_t group)
{
	p_err("%s: site %u: group %llu is not in \"groups\"", r->name, site,
	      (unsigned long long)group);
	return -EINVAL;
}

/* A site's "group" indexes "groups": now if they were read, else once they are. */
static int site_group(struct reading *r, struct profile_site *s, uint64_t v)
{
	struct late_group *late;

	if (r->seen & SEEN_GROUPS) {
		if (v >= r->p->nr_groups)
			return group_missing(r, s->id, v);
		s->group = (uint32_t)v;
		return 0;
	}
	late = realloc(r->late, (r->nr_late + 1) * sizeof(*late));
	if (!late)
		return -ENOMEM;
	r->late = late;
	late[r->nr_late++] = (struct late_group){ (uint32_t)(s - r->p->sites), v };
	return 0;
}

/* The site @o, added to the profile; its group checked now or at the end. */
static int site_from_json(json_object *o, struct reading *r)
{
	bool has_group = false;
	uint64_t group = 0;
	int err = profile_site_from_json(o, r->p, r->name, &group, &has_group);

	return err ? err : has_group ? site_group(r, &r->p->sites[r->p->nr_sites - 1], group) : 0;
}

static int check_format(struct reading *r, json_object *v)
{
	const char *format =
		json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;

	if (!format || strcmp(format, PROFILE_FORMAT)) {
		if (format && !strncmp(format, "copyprof-", 9))
			p_err("%s is a %s file, not a profile (its \"format\" is \"%s\"): give a "
			      "profile from record, import-perf or merge",
			      r->name, format + 9, format);
		else
			p_err("%s: not a copyprof profile (no \"format\": \"%s\")", r->name,
			      PROFILE_FORMAT);
		return -EINVAL;
	}
	return 0;
}

static int check_version(struct reading *r, json_object *v)
{
	if (!v || !json_object_is_type(v, json_type_int)) {
		p_err("%s: profile has no integer \"version\"", r->name);
		return -EINVAL;
	}
	if (json_object_get_int(v) > PROFILE_VERSION || json_object_get_int(v) < 1) {
		p_err("%s: profile format version %d; this copyprof %s reads version %d: use a "
		      "newer copyprof",
		      r->name, json_object_get_int(v), COPYPROF_VERSION, PROFILE_VERSION);
		return -EINVAL;
	}
	return 0;
}

static int read_meta(struct reading *r, json_object *v)
{
	json_object *d;

	if (meta_from_json(v, &r->p->meta, r->name) || profile_args_base(v, r->name, &r->arg_base))
		return -EINVAL;
	r->p->sample = sample_meta_from_json(v);
	if (json_object_object_get_ex(v, "dispatch", &d))
		r->p->dispatch = profile_dispatch_from_json(d);
	if (json_object_object_get_ex(v, "glibc", &d) &&
	    !(r->p->glibc = profile_glibc_from_json(d, r->name)))
		return -EINVAL;
	return 0;
}

static int read_groups(struct reading *r, json_object *v)
{
	if (!json_object_is_type(v, json_type_array)) {
		p_err("%s: \"groups\" is not an array", r->name);
		return -EINVAL;
	}
	return groups_from_json(v, r->p, r->name) ? -EINVAL : 0;
}

static int too_many_sites(const struct reading *r)
{
	p_err("%s: %zu sites; copyprof reads at most %d sites per profile (about 0.5 KB of "
	      "memory each, docs/profile-format.md#limits): merge or estimate fewer hosts at once",
	      r->name, r->nr_sites, PROFILE_MAX_SITES);
	return -E2BIG;
}

/* After the last member: what a profile must have, and the groups sites named early. */
static int reading_end(struct reading *r)
{
	size_t i;

	if (!(r->seen & SEEN_FORMAT))
		return check_format(r, NULL);
	if (!(r->seen & SEEN_VERSION))
		return check_version(r, NULL);
	if (!(r->seen & SEEN_SITES)) {
		p_err("%s: profile has no \"sites\" array", r->name);
		return -EINVAL;
	}
	for (i = 0; i < r->nr_late; i++) {
		if (r->late[i].group >= r->p->nr_groups)
			return group_missing(r, r->p->sites[r->late[i].site].id, r->late[i].group);
		r->p->sites[r->late[i].site].group = (uint32_t)r->late[i].group;
	}
	/* Older profiles counted arguments from arg1: renumbered as bpftrace numbers them, then
	 * a site without a family gets the one copyprof inferred before sites had one. */
	if (profile_args_renumber(r->p, r->arg_base))
		return -ENOMEM;
	for (i = 0; i < r->p->nr_sites; i++)
		if (r->p->sites[i].family == CF_NONE)
			r->p->sites[i].family = profile_family_infer(&r->p->sites[i]);
	return 0;
}

/* Takes the profile read (0), or frees it and says why not (-errno, printed). */
static int reading_done(struct reading *r, int err, struct profile **out)
{
	if (!err)
		err = reading_end(r);
	if (err == -ENOMEM)
		p_err("%s: %s", r->name, strerror(ENOMEM));
	free(r->late);
	if (err) {
		profile_free(r->p);
		return err;
	}
	*out = r->p;
	return 0;
}

int profile_from_json(json_object *root, const char *name, struct profile **out)
{
	struct reading r = { .name = name, .arg_base = 1 };
	json_object *v, *sites = NULL;
	size_t i;
	int err;

	/* The checks in the order a reader of the whole tree can make them. */
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "format", &v))
		v = NULL;
	if (check_format(&r, v))
		return -EINVAL;
	if (!json_object_object_get_ex(root, "version", &v))
		v = NULL;
	if (check_version(&r, v))
		return -EINVAL;
	if (!json_object_object_get_ex(root, "sites", &sites) ||
	    !json_object_is_type(sites, json_type_array)) {
		p_err("%s: profile has no \"sites\" array", name);
		return -EINVAL;
	}
	r.nr_sites = json_object_array_length(sites);
	if (r.nr_sites > PROFILE_MAX_SITES)
		return too_many_sites(&r);
	r.p = profile_new();
	if (!r.p)
		return -ENOMEM;
	r.seen = SEEN_FORMAT | SEEN_VERSION | SEEN_SITES;
	err = json_object_object_get_ex(root, "meta", &v) ? read_meta(&r, v) : 0;
	if (!err && json_object_object_get_ex(root, "groups", &v))
		err = read_groups(&r, v);
	r.seen |= SEEN_GROUPS; /* read, or none: a site's group is checked as it is read */
	for (i = 0; !err && i < json_object_array_length(sites); i++)
		err = site_from_json(json_object_array_get_idx(sites, i), &r);
	return reading_done(&r, err, out);
}

/* "sites", element by element: each built and its JSON freed before the next is parsed. */
static int sites_from_stream(struct reading *r, struct jsonr_stream *js)
{
	json_object *o;
	int more, err = 0;

	more = jsonr_stream_array(js);
	if (more < 0)
		return more;
	if (!more) {
		p_err("%s: profile has no \"sites\" array", r->name);
		return -EINVAL;
	}
	while ((more = jsonr_stream_element(js, &o)) == 1) {
		r->nr_sites++;
		/* Past the limit, the rest is only counted, to say how many there are. */
		if (!err && r->nr_sites > PROFILE_MAX_SITES) {
			err = -E2BIG;
			profile_free(r->p);
			r->p = profile_new();
		}
		if (!err)
			err = site_from_json(o, r);
		json_object_put(o);
		if (err && err != -E2BIG)
			return err;
	}
	if (more < 0)
		return more;
	return err == -E2BIG ? too_many_sites(r) : 0;
}

/* One member of the top-level object; members this copyprof does not know are skipped. */
static int member_from_stream(struct reading *r, struct jsonr_stream *js, const char *key)
{
	static const struct {
		const char *key;
		unsigned int bit;
	} known[] = { { "format", SEEN_FORMAT },
		      { "version", SEEN_VERSION },
		      { "meta", SEEN_META },
		      { "groups", SEEN_GROUPS },
		      { "sites", SEEN_SITES } };
	unsigned int bit = 0;
	json_object *v;
	size_t i;
	int err;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(key, known[i].key))
			bit = known[i].bit;
	if (bit & r->seen) {
		p_err("%s: \"%s\" appears twice in the profile", r->name, key);
		return -EINVAL;
	}
	if (bit == SEEN_SITES) {
		r->seen |= bit;
		return sites_from_stream(r, js);
	}
	err = jsonr_stream_value(js, &v);
	if (err)
		return err;
	switch (bit) {
	case SEEN_FORMAT:
		err = check_format(r, v);
		break;
	case SEEN_VERSION:
		err = check_version(r, v);
		break;
	case SEEN_META:
		err = read_meta(r, v);
		break;
	case SEEN_GROUPS:
		err = read_groups(r, v);
		break;
	}
	json_object_put(v);
	r->seen |= bit;
	return err;
}

int profile_read(const char *path, struct profile **out)
{
	struct reading r = { .name = path, .arg_base = 1 };
	struct jsonr_stream *js;
	const char *key;
	struct stat st;
	char why[192];
	int err, more;

	/* The file's size is bounded before anything is read (docs/profile-format.md#limits). */
	if (strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > PROFILE_MAX_BYTES) {
		p_err("%s: %llu MiB; copyprof reads profiles of at most %llu MiB "
		      "(docs/profile-format.md#limits): merge or estimate fewer hosts at once",
		      path, (unsigned long long)st.st_size >> 20,
		      (unsigned long long)PROFILE_MAX_BYTES >> 20);
		return -E2BIG;
	}
	err = jsonr_stream_open(path, &js, why, sizeof(why));
	if (err) {
		p_err("cannot read profile %s: %s", path, why);
		return err;
	}
	r.p = profile_new();
	err = r.p ? 0 : -ENOMEM;
	/* Members in the file's order; a site is checked as it is read. */
	while (!err && (more = jsonr_stream_key(js, &key)) == 1)
		err = member_from_stream(&r, js, key);
	if (!err && more < 0)
		err = more;
	if (err == -EDOM) { /* valid JSON, but not an object */
		err = check_format(&r, NULL);
	} else if (err == -EINVAL && jsonr_stream_why(js)[0]) {
		p_err("%s is %s", path, jsonr_stream_why(js));
	} else if (err && err != -EINVAL && err != -E2BIG && err != -EOVERFLOW && err != -ENOMEM &&
		   jsonr_stream_why(js)[0]) {
		p_err("cannot read profile %s: %s", path, jsonr_stream_why(js));
	}
	jsonr_stream_close(js);
	return reading_done(&r, err, out);
}
