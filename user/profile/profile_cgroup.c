// SPDX-License-Identifier: GPL-2.0
/* profile_cgroup.c: a site's calls by cgroup (the top few, the rest as other) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/hist.h"
#include "lib/jsonr.h"
#include "lib/kube_cgroup.h"
#include "lib/log.h"
#include "profile_cgroup.h"

static bool same_cgroup(const struct cgroup_count *e, uint64_t id, const char *path)
{
	if (path && e->path)
		return !strcmp(path, e->path);
	return e->id == id;
}

int site_cgroups_add(struct site_cgroups *c, uint64_t id, const char *path, uint64_t calls)
{
	struct cgroup_count *v;
	uint32_t i;

	c->recorded = true;
	for (i = 0; i < c->nr; i++)
		if (same_cgroup(&c->v[i], id, path)) {
			c->v[i].calls += calls;
			return 0;
		}
	v = realloc(c->v, (c->nr + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->v = v;
	v[c->nr] = (struct cgroup_count){ .id = id, .calls = calls };
	if (path && !(v[c->nr].path = strdup(path)))
		return -ENOMEM;
	c->nr++;
	return 0;
}

static int cmp_calls(const void *a, const void *b)
{
	const struct cgroup_count *x = a, *y = b;
	int by_path;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	by_path = strcmp(x->path ?: "", y->path ?: "");
	if (by_path)
		return by_path;
	return x->id < y->id ? -1 : x->id > y->id;
}

int site_cgroups_keep_top(struct site_cgroups *c, uint32_t k)
{
	uint32_t i;

	if (c->nr)
		qsort(c->v, c->nr, sizeof(*c->v), cmp_calls);
	for (i = k; i < c->nr; i++) {
		c->other += c->v[i].calls;
		free(c->v[i].path);
	}
	if (c->nr > k)
		c->nr = k;
	return 0;
}

int site_cgroups_sum(struct site_cgroups *c, const struct site_cgroups *a)
{
	uint32_t i;

	c->recorded = true;
	c->other += a->other;
	for (i = 0; i < a->nr; i++)
		if (site_cgroups_add(c, a->v[i].id, a->v[i].path, a->v[i].calls))
			return -ENOMEM;
	return site_cgroups_keep_top(c, CP_CGROUP_SLOTS);
}

void site_cgroups_clear(struct site_cgroups *c)
{
	uint32_t i;

	for (i = 0; i < c->nr; i++)
		free(c->v[i].path);
	c->nr = 0;
	c->other = 0;
	c->recorded = false;
}

void site_cgroups_free(struct site_cgroups *c)
{
	site_cgroups_clear(c);
	free(c->v);
	*c = (struct site_cgroups){ 0 };
}

static void add_kube(json_object *o, const char *path)
{
	struct kube_cgroup k;

	if (!path || !kube_cgroup_parse(path, &k))
		return;
	json_object_object_add(o, "pod_uid", json_object_new_string(k.pod_uid));
	json_object_object_add(o, "qos", json_object_new_string(k.qos));
	if (k.container_id[0])
		json_object_object_add(o, "container_id", json_object_new_string(k.container_id));
}

json_object *site_cgroups_to_json(const struct site_cgroups *c)
{
	json_object *a = json_object_new_array(), *o;
	uint32_t i;

	for (i = 0; i < c->nr; i++) {
		o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_uint64(c->v[i].id));
		json_object_object_add(o, "path",
				       c->v[i].path ? json_object_new_string(c->v[i].path) : NULL);
		json_object_object_add(o, "calls", json_object_new_uint64(c->v[i].calls));
		add_kube(o, c->v[i].path);
		json_object_array_add(a, o);
	}
	if (c->other) {
		o = json_object_new_object();
		json_object_object_add(o, "other", json_object_new_boolean(1));
		json_object_object_add(o, "calls", json_object_new_uint64(c->other));
		json_object_array_add(a, o);
	}
	return a;
}

int site_cgroups_from_json(json_object *a, struct site_cgroups *c, const char *name, uint32_t site)
{
	size_t i, n;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array)) {
		p_err("%s: site %u: \"cgroups\" must be an array of {id, path, calls}", name, site);
		return -EINVAL;
	}
	c->recorded = true;
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(a, i), *other;
		uint64_t id = 0, calls;
		char *path;
		int err;

		if (jsonr_u64(row, "calls", &calls)) {
			p_err("%s: site %u: cgroups row %zu needs unsigned integer calls", name,
			      site, i);
			return -EINVAL;
		}
		if (json_object_object_get_ex(row, "other", &other) &&
		    json_object_get_boolean(other)) {
			if (c->other + calls < c->other) {
				p_err("%s: site %u: cgroups' other calls overflow", name, site);
				return -EOVERFLOW;
			}
			c->other += calls;
			continue;
		}
		if (jsonr_u64(row, "id", &id)) {
			p_err("%s: site %u: cgroups row %zu needs an unsigned integer id", name,
			      site, i);
			return -EINVAL;
		}
		path = jsonr_str(row, "path");
		err = site_cgroups_add(c, id, path, calls);
		free(path);
		if (err)
			return err;
	}
	return site_cgroups_keep_top(c, CP_CGROUP_SLOTS);
}
