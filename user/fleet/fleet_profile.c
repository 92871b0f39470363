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
#include "lib/log.h"
#include "lib/regs.h"
#include "prom_client.h"

/* The labels a site is kept apart by; host is summed away. */
#define SITE_LABELS "cpu_model,kernel,target,symbol,offset,mechanism,label,family"
#define NR_RANGES (OM_NR_EDGES + 1) /* below each edge, and from the last one */

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

bool fleet_selector_valid(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n >= 2 && s[0] == '{' && s[n - 1] == '}';
}

/*
 * The exact increase of counter @m over @r where it can be had, Prometheus's increase()
 * elsewhere: a series that was there @r ago and did not reset is its value now less its
 * value then; one that started within the range (an agent started since) counts from zero;
 * one that reset, or that is gone now, takes increase(), which extrapolates to the range's
 * edges (docs/fleet.md#precision).
 */
static char *increase_query(const char *m, const char *sel, const char *r)
{
	char *q;

	if (asprintf(&q,
		     "sum by (" SITE_LABELS ",le) (((%s%s - (%s%s offset %s or %s%s * 0)) unless "
		     "(resets(%s%s[%s]) > 0)) or increase(%s%s[%s]))",
		     m, sel, m, sel, r, m, sel, m, sel, r, m, sel, r) < 0)
		return NULL;
	return q;
}

struct fsite {
	char *labels[8];			   /* SITE_LABELS in order */
	double calls[NR_RANGES], bytes[NR_RANGES]; /* cumulative: below each edge, then all */
};

struct fsites {
	struct fsite *v;
	size_t nr;
};

static const char *const label_names[8] = { "cpu_model", "kernel",    "target", "symbol",
					    "offset",	 "mechanism", "label",	"family" };

static const char *label(json_object *metric, const char *name)
{
	json_object *v;

	return json_object_object_get_ex(metric, name, &v) ? json_object_get_string(v) : NULL;
}

static struct fsite *find_site(struct fsites *fs, json_object *metric)
{
	struct fsite *s;
	size_t i, k;

	for (i = 0; i < fs->nr; i++) {
		for (k = 0; k < 8; k++) {
			const char *a = fs->v[i].labels[k], *b = label(metric, label_names[k]);

			if ((a || b) && (!a || !b || strcmp(a, b)))
				break;
		}
		if (k == 8)
			return &fs->v[i];
	}
	s = realloc(fs->v, (fs->nr + 1) * sizeof(*s));
	if (!s)
		return NULL;
	fs->v = s;
	s = &s[fs->nr++];
	memset(s, 0, sizeof(*s));
	for (k = 0; k < 8; k++) {
		const char *v = label(metric, label_names[k]);

		s->labels[k] = v ? strdup(v) : NULL;
	}
	return s;
}

/* le="4095.0" -> the range index whose upper edge is 4096; "+Inf" -> the last. */
static int le_index(const char *le)
{
	double v;
	size_t i;

	if (!le)
		return -1;
	if (!strcmp(le, "+Inf"))
		return OM_NR_EDGES;
	v = strtod(le, NULL);
	for (i = 0; i < OM_NR_EDGES; i++)
		if ((double)(om_edges[i] - 1) == v)
			return (int)i;
	return -1;
}

static int add_results(struct fsites *fs, json_object *res, bool bytes)
{
	size_t i, n = json_object_array_length(res);

	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(res, i), *metric, *value;
		struct fsite *s;
		int k;

		if (!json_object_object_get_ex(e, "metric", &metric) ||
		    !json_object_object_get_ex(e, "value", &value) ||
		    json_object_array_length(value) != 2)
			continue;
		if (!label(metric, "cpu_model")) {
			p_err("a series without cpu_model (%s): estimate needs each host's CPU "
			      "model to pick its cost model; is a relabelling rule dropping it, or "
			      "is this not copyprof agent's?",
			      json_object_to_json_string(metric));
			return -EINVAL;
		}
		k = le_index(label(metric, "le"));
		if (k < 0)
			continue; /* not one of copyprof's bounds */
		s = find_site(fs, metric);
		if (!s)
			return -ENOMEM;
		(bytes ? s->bytes : s->calls)[k] =
			strtod(json_object_get_string(json_object_array_get_idx(value, 1)), NULL);
	}
	return 0;
}

static uint64_t whole(double v)
{
	return v > 0 ? (uint64_t)llround(v) : 0;
}

/*
 * Each collapsed range's calls and bytes go into the copyprof bucket of their mean length
 * (inside the range), so that estimate's mean per bucket is the range's true mean.
 */
static void fill_site(struct profile_site *ps, const struct fsite *s)
{
	double below_c = 0, below_b = 0;
	size_t k;

	for (k = 0; k < NR_RANGES; k++) {
		uint64_t lo = k ? om_edges[k - 1] : 0;
		uint64_t hi = k < OM_NR_EDGES ? om_edges[k] : UINT64_MAX;
		double c = s->calls[k] - below_c, b = s->bytes[k] - below_b;
		uint64_t n = whole(c), mean;

		below_c = s->calls[k];
		below_b = s->bytes[k];
		if (!n)
			continue;
		mean = whole(b / c);
		mean = mean < lo ? lo : mean >= hi ? hi - 1 : mean;
		ps->buckets[cp_bucket_of(mean)].count += n;
		ps->buckets[cp_bucket_of(mean)].bytes += whole(b);
	}
	profile_site_sum(ps);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* cpu_flags per (cpu_model, kernel) from copyprof_agent_info; missing ones stay unknown. */
static const char *flags_of(json_object *info, const char *cpu, const char *kernel)
{
	size_t i, n = info ? json_object_array_length(info) : 0;

	for (i = 0; i < n; i++) {
		json_object *m;
		const char *c, *k;

		if (!json_object_object_get_ex(json_object_array_get_idx(info, i), "metric", &m))
			continue;
		c = label(m, "cpu_model");
		k = label(m, "kernel");
		if (c && k && kernel && !strcmp(c, cpu) && !strcmp(k, kernel))
			return label(m, "cpu_flags");
	}
	return NULL;
}

static int group_of(struct profile *p, const struct fsite *s, json_object *info)
{
	struct profile_group *g;
	const char *flags;
	size_t i;

	for (i = 0; i < p->nr_groups; i++)
		if (!strcmp(p->groups[i].cpu_model, s->labels[0]) &&
		    !strcmp(p->groups[i].kernel ?: "", s->labels[1] ?: ""))
			return (int)i;
	g = profile_add_group(p);
	if (!g)
		return -ENOMEM;
	g->cpu_model = strdup(s->labels[0]);
	g->kernel = dup_or_null(s->labels[1]);
	g->profiles = 1;
	flags = flags_of(info, s->labels[0], s->labels[1]);
	if (!flags)
		p_warn("no copyprof_agent_info for CPU '%s', kernel %s: its CPU flags are unknown, "
		       "so today's copy code is taken from the cost model's CPU",
		       s->labels[0], s->labels[1] ?: "?");
	while (flags && *flags) {
		size_t n = strcspn(flags, ",");
		char **v = realloc(g->cpu_flags, (g->nr_cpu_flags + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		g->cpu_flags = v;
		v[g->nr_cpu_flags++] = strndup(flags, n);
		flags += n + (flags[n] == ',');
	}
	return (int)(p->nr_groups - 1);
}

static int build(struct fsites *fs, json_object *info, struct profile **out)
{
	struct profile *p = profile_new();
	size_t i;

	if (!p)
		return -ENOMEM;
	for (i = 0; i < fs->nr; i++) {
		const struct fsite *s = &fs->v[i];
		struct profile_site *ps;
		int g = group_of(p, s, info);

		if (g < 0 || !(ps = profile_add_site(p))) {
			profile_free(p);
			return -ENOMEM;
		}
		ps->group = (uint32_t)g;
		ps->target = dup_or_null(s->labels[2]);
		ps->symbol = dup_or_null(s->labels[3]);
		ps->offset = s->labels[4] ? strtoull(s->labels[4], NULL, 16) : 0;
		ps->mechanism = dup_or_null(s->labels[5]);
		ps->label = dup_or_null(s->labels[6]);
		/* estimate tells a clear_user-like site by its length in arg1 (est_site_family). */
		ps->len_arg = strdup(reg_name(s->labels[7] && !strcmp(s->labels[7], "clear_user")
						      ? CP_REG_ARG1
						      : CP_REG_ARG2));
		fill_site(ps, s);
	}
	*out = p;
	return 0;
}

int fleet_profile_fetch(const struct fleet_query *q, struct profile **out)
{
	const char *sel = q->selector ?: "";
	struct fsites fs = { 0 };
	json_object *calls = NULL, *bytes = NULL, *info = NULL;
	char *qc = increase_query(OM_FAMILY_CALLS "_bucket", sel, q->range);
	char *qb = increase_query(OM_FAMILY_BYTES "_bucket", sel, q->range);
	char *qi = NULL;
	size_t i, k;
	int err = -ENOMEM;

	*out = NULL;
	if (!qc || !qb ||
	    asprintf(&qi, "max by (cpu_model,kernel,cpu_flags) (copyprof_agent_info%s)", sel) < 0)
		goto out;
	err = prom_query(q->url, qc, &calls);
	if (!err && !json_object_array_length(calls)) {
		p_err("no copyprof histograms match %s over the last %s at %s: check the selector "
		      "(label names as in /metrics) and that Prometheus scrapes the agents",
		      *sel ? sel : "(no selector)", q->range, q->url);
		err = -ENOENT;
	}
	if (!err)
		err = prom_query(q->url, qb, &bytes);
	if (!err && prom_query(q->url, qi, &info))
		p_warn("copyprof_agent_info could not be read; CPU flags are unknown");
	if (!err)
		err = add_results(&fs, calls, false);
	if (!err)
		err = add_results(&fs, bytes, true);
	if (!err)
		err = build(&fs, info, out);
out:
	for (i = 0; i < fs.nr; i++)
		for (k = 0; k < 8; k++)
			free(fs.v[i].labels[k]);
	free(fs.v);
	json_object_put(calls);
	json_object_put(bytes);
	json_object_put(info);
	free(qc);
	free(qb);
	free(qi);
	return err;
}
