// SPDX-License-Identifier: GPL-2.0
/* fleet_profile.c: PromQL for the fleet's increase per site and CPU model, back into a profile */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/export_openmetrics.h"
#include "fleet_profile.h"
#include "fleet_native.h"
#include "fleet_selector.h"
#include "fleet_series.h"
#include "lib/log.h"
#include "lib/regs.h"
#include "prom_client.h"
#include "sites/copy_family.h"

bool fleet_range_valid(const char *s)
{
	const char *p = s;

	if (!s || !*s)
		return false;
	while (*p) {
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
		if (!strncmp(p, "ms", 2))
			p += 2;
		else if (*p && strchr("smhdwy", *p))
			p++;
		else
			return false;
	}
	return true;
}

bool fleet_selector_valid(const char *s, char *why, size_t len)
{
	struct fleet_selector sel;

	if (fleet_selector_split(s, &sel, why, len))
		return false;
	fleet_selector_free(&sel);
	return true;
}

/*
 * The exact increase of counter @m over @r where it can be had, Prometheus's increase()
 * elsewhere: a series that was there @r ago and did not reset is its value now less its
 * value then; one that started within the range (an agent started since) counts from zero;
 * one that reset, or that is gone now, takes increase(), which extrapolates to the range's
 * edges (docs/fleet.md#precision).
 */
static char *increase_query(const char *m, const char *by, const struct fleet_selector *sel,
			    const char *r)
{
	const char *h = sel->hist;
	char *q;

	if (asprintf(&q,
		     "sum by (" FLEET_SITE_LABELS "%s) ((((%s%s - (%s%s offset %s or %s%s * 0)) "
		     "unless (resets(%s%s[%s]) > 0)) or increase(%s%s[%s])) " FLEET_JOIN
		     " " FLEET_INFO_EXPR("%s", "%s") ")",
		     by, m, h, m, h, r, m, h, m, h, r, m, h, r, sel->info, r) < 0)
		return NULL;
	return q;
}
static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static const char *info_label(json_object *e, const char *name)
{
	json_object *m, *v;

	return json_object_object_get_ex(e, "metric", &m) && json_object_object_get_ex(m, name, &v)
		       ? json_object_get_string(v)
		       : NULL;
}

static int add_flags(struct profile_group *g, const char *flags)
{
	while (flags && *flags) {
		size_t n = strcspn(flags, ",");
		char **v = realloc(g->cpu_flags, (g->nr_cpu_flags + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		g->cpu_flags = v;
		if (!(v[g->nr_cpu_flags++] = strndup(flags, n)))
			return -ENOMEM;
		flags += n + (flags[n] == ',');
	}
	return 0;
}

static int add_host(struct profile_group *g, const char *host)
{
	char **v = realloc(g->hosts, (g->nr_hosts + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	g->hosts = v;
	return (v[g->nr_hosts] = strdup(host)) ? (g->nr_hosts++, 0) : -ENOMEM;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, each once (a host that changed CPU flags in the range is listed twice). */
static void sort_hosts(struct profile_group *g)
{
	size_t i, n = 0;

	if (!g->nr_hosts)
		return;
	qsort(g->hosts, g->nr_hosts, sizeof(*g->hosts), by_name);
	for (i = 0; i < g->nr_hosts; i++) {
		if (n && !strcmp(g->hosts[n - 1], g->hosts[i]))
			free(g->hosts[i]);
		else
			g->hosts[n++] = g->hosts[i];
	}
	g->nr_hosts = n;
}

/*
 * The group's CPU flags and hosts from copyprof_agent_info (every host seen in the range with
 * this CPU model and kernel): each host is one profile, as merge counts them.
 */
static int describe_group(struct profile_group *g, json_object *info)
{
	size_t i, n = info ? json_object_array_length(info) : 0;
	bool flags_done = false;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		json_object *e = json_object_array_get_idx(info, i);
		const char *c = info_label(e, "cpu_model"), *k = info_label(e, "kernel");
		/* The agent's own name for its host, not a scrape config's host label. */
		const char *host = info_label(e, "exported_host") ?: info_label(e, "host");

		if (!c || strcmp(c, g->cpu_model) || strcmp(k ?: "", g->kernel ?: ""))
			continue;
		if (!flags_done) {
			err = add_flags(g, info_label(e, "cpu_flags"));
			flags_done = true;
		}
		if (!err && host)
			err = add_host(g, host);
	}
	sort_hosts(g);
	g->profiles = g->nr_hosts;
	if (!flags_done)
		p_warn("no copyprof_agent_info for CPU '%s', kernel %s: its CPU flags and hosts "
		       "are unknown, so today's copy code is taken from the cost model's CPU",
		       g->cpu_model, g->kernel ?: "?");
	return err;
}

static int group_of(struct profile *p, const struct fleet_site *s, json_object *info)
{
	const char *cpu = s->labels[FLEET_CPU_MODEL], *kernel = s->labels[FLEET_KERNEL];
	struct profile_group *g;
	size_t i;

	for (i = 0; i < p->nr_groups; i++)
		if (!strcmp(p->groups[i].cpu_model, cpu) &&
		    !strcmp(p->groups[i].kernel ?: "", kernel ?: ""))
			return (int)i;
	g = profile_add_group(p);
	if (!g || !(g->cpu_model = strdup(cpu)) || (kernel && !(g->kernel = strdup(kernel))))
		return -ENOMEM;
	return describe_group(g, info) ? -ENOMEM : (int)(p->nr_groups - 1);
}

int fleet_profile_build(const struct fleet_series *fs, json_object *info, struct profile **out)
{
	struct profile *p = profile_new();
	size_t i;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	for (i = 0; i < fs->nr; i++) {
		const struct fleet_site *s = &fs->v[i];
		struct profile_site *ps;
		int g = group_of(p, s, info);

		if (g < 0 || !(ps = profile_add_site(p))) {
			profile_free(p);
			return -ENOMEM;
		}
		ps->group = (uint32_t)g;
		ps->target = dup_or_null(s->labels[FLEET_TARGET]);
		ps->symbol = dup_or_null(s->labels[FLEET_SYMBOL]);
		ps->offset =
			s->labels[FLEET_OFFSET] ? strtoull(s->labels[FLEET_OFFSET], NULL, 16) : 0;
		ps->mechanism = dup_or_null(s->labels[FLEET_MECHANISM]);
		ps->label = dup_or_null(s->labels[FLEET_LABEL]);
		/* The agent's family label (the site's); where the length was read is not a label. */
		ps->family = copy_family_parse(s->labels[FLEET_FAMILY]);
		fleet_site_fill(s, ps);
	}
	*out = p;
	return 0;
}

/* Adds the classic answer to @query to @fs; an empty one is fine. */
static int add_classic(struct fleet_series *fs, const struct fleet_query *q, const char *query,
		       enum fleet_kind kind, size_t *found)
{
	json_object *res = NULL;
	int err = prom_query(q->url, query, &res);

	if (!err) {
		*found += json_object_array_length(res);
		err = fleet_series_add_classic(fs, res, kind);
	}
	json_object_put(res); /* before the next answer: one tree at a time */
	return err;
}

/*
 * Hosts and CPU flags per CPU model and kernel, from copyprof_agent_info over the range; when
 * the selector names labels the info metric lacks, from every agent instead (said).
 */
static json_object *read_info(const struct fleet_query *q, const struct fleet_selector *sel)
{
	json_object *info = NULL;
	char *qi = NULL;

	if (asprintf(&qi,
		     "max by (cpu_model,kernel,cpu_flags,host,exported_host) "
		     "(max_over_time(copyprof_agent_info%s[%s]))",
		     sel->info, q->range) < 0)
		return NULL;
	if (prom_query(q->url, qi, &info))
		p_warn("copyprof_agent_info could not be read; CPU flags and hosts are unknown");
	free(qi);
	return info;
}

/* Sites whose agent has no copyprof_agent_info are left out of the join: said, with how many. */
static void check_joined(const struct fleet_query *q, const struct fleet_selector *sel)
{
	json_object *left = NULL;
	char *qu = NULL;

	if (asprintf(&qu,
		     "count(" OM_FAMILY_CALLS "_count%s unless ignoring (" FLEET_SITE_ONLY
		     "," FLEET_INFO_ONLY ") " FLEET_INFO_EXPR("%s", "%s") ")",
		     sel->hist, sel->info, q->range) >= 0 &&
	    !prom_query(q->url, qu, &left) && json_object_array_length(left))
		p_warn("%s site series have no copyprof_agent_info%s to name their CPU and kernel "
		       "(an agent before 0.9, or a relabelling rule dropped it): left out",
		       json_object_get_string(json_object_array_get_idx(
			       json_object_object_get(json_object_array_get_idx(left, 0), "value"),
			       1)),
		       *sel->info ? " matching the selector" : "");
	json_object_put(left);
	free(qu);
}

int fleet_profile_fetch(const struct fleet_query *q, struct profile **out)
{
	struct fleet_series fs = { 0 };
	struct fleet_selector sel = { 0 };
	json_object *info = NULL;
	char *qc = NULL, *qb = NULL, why[160];
	size_t found = 0, native = 0;
	int err;

	*out = NULL;
	err = fleet_selector_split(q->selector ?: "{}", &sel, why, sizeof(why));
	if (err) {
		p_err("--selector %s: %s", q->selector, why);
		return err;
	}
	err = -ENOMEM;
	qc = increase_query(OM_FAMILY_CALLS "_bucket", ",le", &sel, q->range);
	qb = increase_query(OM_FAMILY_BYTES "_bucket", ",le", &sel, q->range);
	if (!qc || !qb)
		goto out;
	info = read_info(q, &sel);
	/* Native histograms (Prometheus with native-histograms on) and classic buckets both. */
	err = fleet_native_fetch(&fs, q, &sel, OM_FAMILY_CALLS, FLEET_CALLS, &native);
	if (!err && native)
		err = fleet_native_fetch(&fs, q, &sel, OM_FAMILY_BYTES, FLEET_BYTES, &native);
	if (!err)
		err = add_classic(&fs, q, qc, FLEET_CALLS, &found);
	if (!err && !found && !native) {
		p_err("no copyprof histograms match %s over the last %s at %s: check the selector "
		      "(label names as in /metrics) and that Prometheus scrapes the agents",
		      q->selector ?: "(no selector)", q->range, q->url);
		err = -ENOENT;
	}
	if (!err && found) {
		err = add_classic(&fs, q, qb, FLEET_BYTES, &found);
		check_joined(q, &sel);
	}
	if (!err)
		err = fleet_series_check(&fs);
	if (!err)
		err = fleet_profile_build(&fs, info, out);
out:
	fleet_series_free(&fs);
	fleet_selector_free(&sel);
	json_object_put(info);
	free(qc);
	free(qb);
	return err;
}
