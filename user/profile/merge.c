// SPDX-License-Identifier: GPL-2.0
/* merge.c: sum profiles by (kernel, CPU) group and site key, in an order-independent way */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "merge.h"
#include "profile_mux.h"

/* A group as merge sees it: one input profile's group, or an unmerged profile's meta. */
struct group_view {
	const char *kernel, *cpu_model;
	char *const *flags;
	size_t nr_flags;
	bool flags_unknown;
	char *const *hosts;
	size_t nr_hosts;
	const char *host; /* an unmerged profile's one hostname */
	uint64_t profiles;
	double duration_s;
	uint32_t sample_hz;
	uint64_t total_samples, idle_samples;
};

/* The first sum that passed 2^64 - 1, and whose (NULL: a group's): merge refuses it. */
static const char *overflow_field;
static const struct profile_site *overflow_site;

/* @a += @b for any unsigned field; a wrap is remembered, never written. */
#define SUM(a, b, field, site)                                                                     \
	do {                                                                                       \
		if (__builtin_add_overflow((a), (b), &(a)) && !overflow_field) {                   \
			overflow_field = (field);                                                  \
			overflow_site = (site);                                                    \
		}                                                                                  \
	} while (0)

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_strp(const void *a, const void *b)
{
	return cmp_str(*(char *const *)a, *(char *const *)b);
}

/*
 * Inserts a copy of @s into the sorted, duplicate-free @v (of *@n) unless it is there: a binary
 * search and one move, so that a group of many hosts is not quadratic in them.
 */
static int strv_add_unique(char ***v, size_t *n, const char *s)
{
	size_t lo = 0, hi = *n, mid;
	char **nv, *copy;
	int c;

	if (!s)
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp((*v)[mid], s);
		if (!c)
			return 0;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	copy = strdup(s);
	nv = copy ? realloc(*v, (*n + 1) * sizeof(*nv)) : NULL;
	if (!nv) {
		free(copy);
		return -ENOMEM;
	}
	*v = nv;
	memmove(&nv[lo + 1], &nv[lo], (*n - lo) * sizeof(*nv));
	nv[lo] = copy;
	(*n)++;
	return 0;
}

/*
 * A view's flags as a set: sorted and without duplicates (pointers into the view), which an
 * output group's flags already are. The caller frees *@out. 0 or -ENOMEM.
 */
static int flag_set(const struct group_view *v, const char ***out, size_t *n)
{
	const char **s = malloc((v->nr_flags ? v->nr_flags : 1) * sizeof(*s));
	size_t i, k = 0;

	if (!s)
		return -ENOMEM;
	if (v->nr_flags) { /* no flags: v->flags may be NULL */
		memcpy(s, v->flags, v->nr_flags * sizeof(*s));
		qsort(s, v->nr_flags, sizeof(*s), cmp_strp);
	}
	for (i = 0; i < v->nr_flags; i++)
		if (!k || strcmp(s[k - 1], s[i]))
			s[k++] = s[i];
	*out = s;
	*n = k;
	return 0;
}

/* Same kernel, CPU model and set of flags (@flags: the view's flag_set()). */
static bool same_group(const struct profile_group *g, const struct group_view *v,
		       const char *const *flags, size_t nr_flags)
{
	size_t i;

	/* Samples at another rate weigh another time each: never summed together. */
	if (cmp_str(g->kernel, v->kernel) || cmp_str(g->cpu_model, v->cpu_model) ||
	    g->sample_hz != v->sample_hz || g->nr_cpu_flags != nr_flags ||
	    g->cpu_flags_unknown != v->flags_unknown)
		return false;
	for (i = 0; i < nr_flags; i++)
		if (strcmp(g->cpu_flags[i], flags[i]))
			return false;
	return true;
}

/* Sums of durations are rounded to the microsecond, so that (a + b) + c == a + (b + c). */
static double round_us(double s)
{
	return round(s * 1e6) / 1e6;
}

static int add_to_group(struct profile *out, const struct group_view *v, uint32_t *gi)
{
	struct profile_group *g = NULL;
	const char **flags;
	size_t i, nr_flags;
	int err = flag_set(v, &flags, &nr_flags);

	if (err)
		return err;
	for (i = 0; i < out->nr_groups && !g; i++)
		if (same_group(&out->groups[i], v, flags, nr_flags))
			g = &out->groups[i];
	if (!g && (g = profile_add_group(out))) {
		g->kernel = v->kernel ? strdup(v->kernel) : NULL;
		g->sample_hz = v->sample_hz;
		g->cpu_model = v->cpu_model ? strdup(v->cpu_model) : NULL;
		g->cpu_flags_unknown = v->flags_unknown;
		g->cpu_flags = calloc(nr_flags ? nr_flags : 1, sizeof(*g->cpu_flags));
		for (i = 0; g->cpu_flags && i < nr_flags && (g->cpu_flags[i] = strdup(flags[i]));
		     i++)
			g->nr_cpu_flags++;
		if (g->nr_cpu_flags != nr_flags)
			err = -ENOMEM;
	}
	free(flags);
	if (!g)
		return -ENOMEM;
	for (i = 0; !err && i < v->nr_hosts; i++)
		err = strv_add_unique(&g->hosts, &g->nr_hosts, v->hosts[i]);
	if (!err)
		err = strv_add_unique(&g->hosts, &g->nr_hosts, v->host);
	SUM(g->profiles, v->profiles, "profiles", NULL);
	SUM(g->total_samples, v->total_samples, "total_samples", NULL);
	SUM(g->idle_samples, v->idle_samples, "idle_samples", NULL);
	g->duration_s = round_us(g->duration_s + v->duration_s);
	*gi = (uint32_t)(g - out->groups);
	return err;
}

static bool same_site(const struct profile_site *a, const struct profile_site *b)
{
	return a->group == b->group && !cmp_str(a->target, b->target) &&
	       !cmp_str(a->symbol, b->symbol) && a->offset == b->offset &&
	       !cmp_str(a->mechanism, b->mechanism) && !cmp_str(a->len_arg, b->len_arg);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/*
 * The output's sites by key (same_site()), so that each input site finds its sum in O(1) and a
 * merge is linear in sites: open addressing, slots hold a site's index + 1 (0 is empty).
 */
struct site_index {
	size_t *slots;
	size_t cap; /* a power of two, at least twice the number of sites */
};

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (s = s ?: ""; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL; /* a separator: "ab","c" differs from "a","bc" */
}

static uint64_t hash_site(const struct profile_site *s)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ s->group;

	h = hash_str(hash_str(h, s->target), s->symbol);
	h = (h ^ s->offset) * 0x100000001b3ULL;
	h = hash_str(hash_str(h, s->mechanism), s->len_arg);
	return h ^ (h >> 29);
}

/* The slot of @key: the one holding its site, or the empty one where it would go. */
static size_t *site_index_slot(const struct site_index *x, const struct profile *out,
			       const struct profile_site *key)
{
	size_t i = (size_t)hash_site(key) & (x->cap - 1);

	while (x->slots[i] && !same_site(&out->sites[x->slots[i] - 1], key))
		i = (i + 1) & (x->cap - 1);
	return &x->slots[i];
}

/* Room for one more site: the table stays at most half full. */
static int site_index_reserve(struct site_index *x, const struct profile *out)
{
	struct site_index n;
	size_t i;

	if ((out->nr_sites + 1) * 2 <= x->cap)
		return 0;
	n.cap = x->cap ? x->cap * 2 : 1024;
	n.slots = calloc(n.cap, sizeof(*n.slots));
	if (!n.slots)
		return -ENOMEM;
	for (i = 0; i < out->nr_sites; i++)
		*site_index_slot(&n, out, &out->sites[i]) = i + 1;
	free(x->slots);
	*x = n;
	return 0;
}

/* A sampled site keeps what makes it one: time weight, family, length quality, stacks. */
static int add_sample_info(struct profile_site *d, const struct sample_site_info *si)
{
	struct sample_site_info *di = d->sample;
	size_t i, j;
	int k;

	if (!di) {
		di = d->sample = calloc(1, sizeof(*di));
		if (!di)
			return -ENOMEM;
		di->leaf = dup_or_null(si->leaf);
	}
	for (k = 0; k < 3; k++)
		SUM(di->quality[k], si->quality[k], "sample quality", d);
	for (i = 0; i < si->nr_stacks; i++) {
		struct sample_stack *st;

		/* The same stack in the same task (pid and comm): one entry. */
		for (j = 0; j < di->nr_stacks && !sample_stack_same(&di->stacks[j], &si->stacks[i]);
		     j++)
			;
		if (j < di->nr_stacks) {
			SUM(di->stacks[j].count, si->stacks[i].count, "stacks' count", d);
			continue;
		}
		st = realloc(di->stacks, (di->nr_stacks + 1) * sizeof(*st));
		if (!st)
			return -ENOMEM;
		di->stacks = st;
		st[di->nr_stacks] = si->stacks[i];
		st[di->nr_stacks].frames = strdup(si->stacks[i].frames);
		st[di->nr_stacks].comm = si->stacks[i].comm ? strdup(si->stacks[i].comm) : NULL;
		if (!st[di->nr_stacks].frames || (si->stacks[i].comm && !st[di->nr_stacks].comm))
			return -ENOMEM;
		di->nr_stacks++;
	}
	if (di->nr_stacks) /* none: di->stacks is NULL, which qsort may not take */
		qsort(di->stacks, di->nr_stacks, sizeof(*di->stacks), sample_stack_cmp);
	return 0;
}

static bool same_caller(const struct profile_caller *a, const struct profile_caller *b)
{
	return a->offset == b->offset && !strcmp(a->symbol ?: "", b->symbol ?: "") &&
	       !strcmp(a->target ?: "", b->target ?: "");
}

/* @d += @s bucket by bucket, each sum checked (@count and @bytes name the fields). */
static int sum_buckets(struct sparse_hist *d, const struct sparse_hist *s, const char *count,
		       const char *bytes, const struct profile_site *site)
{
	const struct hist_bucket *e;

	sparse_hist_for_each (s, e) {
		struct hist_bucket *t;

		if (!e->count && !e->bytes)
			continue;
		t = sparse_hist_slot(d, e->b);
		if (!t)
			return -ENOMEM;
		SUM(t->count, e->count, count, site);
		SUM(t->bytes, e->bytes, bytes, site);
	}
	return 0;
}

/* Callers match by module, function and offset, as sites do; addresses differ per boot. */
static int add_callers(struct profile_site *d, const struct profile_site *s)
{
	size_t i, j;

	for (i = 0; i < s->nr_callers; i++) {
		const struct profile_caller *c = &s->callers[i];
		struct profile_caller *t = NULL;

		for (j = 0; j < d->nr_callers && !t; j++)
			if (same_caller(&d->callers[j], c))
				t = &d->callers[j];
		if (!t) {
			t = profile_site_add_caller(d);
			if (!t || (c->target && !(t->target = strdup(c->target))) ||
			    (c->symbol && !(t->symbol = strdup(c->symbol))))
				return -ENOMEM;
			t->offset = c->offset;
		}
		if (sum_buckets(&t->buckets, &c->buckets, "callers' count", "callers' bytes", d))
			return -ENOMEM;
		SUM(t->calls, c->calls, "callers' calls", d);
		SUM(t->bytes, c->bytes, "callers' bytes", d);
	}
	SUM(d->caller_misses, s->caller_misses, "caller_misses", d);
	profile_site_sort_callers(d);
	return 0;
}

/* @d's distance rows += @a's. 0 or -ENOMEM. */
static int sum_dist(struct profile_site *d, const struct site_dist *a)
{
	uint32_t i;

	d->dist.recorded = true;
	for (i = 0; i < a->nr; i++)
		if (site_dist_add(&d->dist, a->v[i].bucket, a->v[i].c))
			return -ENOMEM;
	return 0;
}

/* @d's alignment counts += @a's, each sum checked. 0 or -ENOMEM. */
static int sum_align(struct profile_site *d, const struct site_align *a)
{
	uint64_t dst[CP_ALIGN_SLOTS], src[CP_ALIGN_SLOTS], adst[CP_ALIGN_SLOTS],
		asrc[CP_ALIGN_SLOTS];
	int i;

	site_align_dense(&d->align, dst, src);
	site_align_dense(a, adst, asrc);
	for (i = 0; i < CP_ALIGN_SLOTS; i++) {
		SUM(dst[i], adst[i], "dst_align", d);
		SUM(src[i], asrc[i], "src_align", d);
	}
	return site_align_set_dense(&d->align, dst, src);
}

static int add_site(struct profile *out, struct site_index *x, const struct profile_site *s,
		    uint32_t gi)
{
	struct profile_site key = *s, *d = NULL;
	size_t *slot;

	key.group = gi;
	if (site_index_reserve(x, out))
		return -ENOMEM;
	slot = site_index_slot(x, out, &key);
	if (*slot)
		d = &out->sites[*slot - 1];
	if (!d) {
		d = profile_add_site(out);
		if (!d)
			return -ENOMEM;
		*slot = out->nr_sites;
		d->group = gi;
		d->target = dup_or_null(s->target);
		d->symbol = dup_or_null(s->symbol);
		d->mechanism = dup_or_null(s->mechanism);
		d->len_arg = dup_or_null(s->len_arg);
		d->offset = s->offset;
		d->family = s->family; /* the same probe point's: the first profile's is kept */
	}
	/* The same binary's site has one source position: the first profile's is kept. */
	if (!d->source && s->source && !(d->source = source_pos_dup(s->source)))
		return -ENOMEM;
	if ((!d->label && s->label && !(d->label = strdup(s->label))) ||
	    (!d->build_id && s->build_id && !(d->build_id = strdup(s->build_id))))
		return -ENOMEM;
	/* Multiplexed recordings: times and raw counts add up; an exact one adds raw counts. */
	if ((s->mux || d->mux) &&
	    ((!d->mux && d->calls && site_mux_add(&d->mux, NULL, d->calls, d->bytes)) ||
	     site_mux_add(&d->mux, s->mux, s->calls, s->bytes)))
		return -ENOMEM;
	if (sum_buckets(&d->buckets, &s->buckets, "count", "bytes", d) ||
	    (s->align.recorded && sum_align(d, &s->align)) ||
	    (s->dist.recorded && sum_dist(d, &s->dist)) ||
	    (s->exact.recorded && site_exact_sum(&d->exact, &s->exact)) ||
	    (s->cgroups.recorded && site_cgroups_sum(&d->cgroups, &s->cgroups)) ||
	    (s->order.recorded && site_order_sum(&d->order, &s->order)))
		return -ENOMEM;
	site_footprint_merge(&d->footprint, &s->footprint);
	/* calls/bytes may exceed the buckets' sums (samples without a length): keep the sums. */
	SUM(d->calls, s->calls, "calls", d);
	SUM(d->bytes, s->bytes, "bytes", d);
	if (add_callers(d, s))
		return -ENOMEM;
	return s->sample ? add_sample_info(d, s->sample) : 0;
}

static int add_profile(struct profile *out, struct site_index *x, const struct profile *p,
		       double *duration, char **start)
{
	uint32_t map[p->nr_groups ? p->nr_groups : 1];
	size_t i;
	int err = 0;

	if (!p->nr_groups) {
		const struct sample_meta *sm = p->sample;
		struct group_view v = { p->meta.kernel,
					p->meta.cpu_model,
					p->meta.cpu_flags,
					p->meta.nr_cpu_flags,
					p->meta.cpu_flags_unknown,
					NULL,
					0,
					p->meta.hostname,
					1,
					p->meta.duration_s,
					sm ? sm->hz : 0,
					sm ? sm->total : 0,
					sm ? sm->idle : 0 };

		err = add_to_group(out, &v, &map[0]);
	}
	for (i = 0; !err && i < p->nr_groups; i++) {
		const struct profile_group *g = &p->groups[i];
		struct group_view v = { g->kernel,
					g->cpu_model,
					g->cpu_flags,
					g->nr_cpu_flags,
					g->cpu_flags_unknown,
					g->hosts,
					g->nr_hosts,
					NULL,
					g->profiles,
					g->duration_s,
					g->sample_hz,
					g->total_samples,
					g->idle_samples };

		err = add_to_group(out, &v, &map[i]);
	}
	for (i = 0; !err && i < p->nr_sites; i++)
		err = add_site(out, x, &p->sites[i], map[p->nr_groups ? p->sites[i].group : 0]);
	*duration = round_us(*duration + p->meta.duration_s);
	if (p->meta.start && (!*start || strcmp(p->meta.start, *start) < 0))
		*start = p->meta.start;
	return err;
}

/* ---- canonical order: groups by (kernel, CPU, flags), sites by group then key ---- */

static int cmp_group(const struct profile_group *a, const struct profile_group *b)
{
	size_t i;
	int c = cmp_str(a->kernel, b->kernel) ?: cmp_str(a->cpu_model, b->cpu_model);

	for (i = 0; !c && i < a->nr_cpu_flags && i < b->nr_cpu_flags; i++)
		c = strcmp(a->cpu_flags[i], b->cpu_flags[i]);
	if (!c)
		c = (a->nr_cpu_flags > b->nr_cpu_flags) - (a->nr_cpu_flags < b->nr_cpu_flags);
	if (!c)
		c = (a->sample_hz > b->sample_hz) - (a->sample_hz < b->sample_hz);
	return c;
}

/* Group indexes by their groups (qsort_r's context: the groups). */
static int cmp_group_idx(const void *a, const void *b, void *groups)
{
	const struct profile_group *g = groups;

	return cmp_group(&g[*(const uint32_t *)a], &g[*(const uint32_t *)b]);
}

static int cmp_site_q(const void *pa, const void *pb)
{
	const struct profile_site *a = pa, *b = pb;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return cmp_str(a->target, b->target) ?: cmp_str(a->symbol, b->symbol) ?:
	       (a->offset > b->offset) - (a->offset < b->offset) ?:
	       cmp_str(a->mechanism, b->mechanism) ?: cmp_str(a->len_arg, b->len_arg);
}

static int sort_canonical(struct profile *out)
{
	struct profile_group *sorted;
	uint32_t *rank, *order;
	size_t i, n = out->nr_groups ? out->nr_groups : 1;

	sorted = malloc(n * sizeof(*sorted));
	rank = malloc(n * sizeof(*rank));
	order = malloc(n * sizeof(*order));
	if (!sorted || !rank || !order) {
		free(sorted);
		free(rank);
		free(order);
		return -ENOMEM;
	}
	/* Groups are distinct by (kernel, CPU, flags, rate): the sort decides every rank. */
	for (i = 0; i < out->nr_groups; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, out->nr_groups, sizeof(*order), cmp_group_idx, out->groups);
	for (i = 0; i < out->nr_groups; i++) {
		sorted[i] = out->groups[order[i]];
		rank[order[i]] = (uint32_t)i;
	}
	for (i = 0; i < out->nr_sites; i++)
		out->sites[i].group = rank[out->sites[i].group];
	memcpy(out->groups, sorted, out->nr_groups * sizeof(*sorted));
	if (out->nr_sites)
		qsort(out->sites, out->nr_sites, sizeof(*out->sites), cmp_site_q);
	for (i = 0; i < out->nr_sites; i++)
		out->sites[i].id = (uint32_t)i;
	free(sorted);
	free(rank);
	free(order);
	return 0;
}

/* The top-level meta: the whole; kernel, CPU and host only when they are one. */
static int fill_meta(struct profile *out, double duration, const char *start)
{
	const struct profile_group *g = &out->groups[0];
	size_t i;

	out->meta.tool_version = strdup(COPYPROF_VERSION);
	out->meta.duration_s = duration;
	out->meta.start = dup_or_null(start);
	if (out->nr_groups != 1)
		return out->meta.tool_version ? 0 : -ENOMEM;
	out->meta.kernel = dup_or_null(g->kernel);
	out->meta.cpu_model = dup_or_null(g->cpu_model);
	out->meta.cpu_flags_unknown = g->cpu_flags_unknown;
	out->meta.hostname = g->nr_hosts == 1 ? strdup(g->hosts[0]) : NULL;
	out->meta.cpu_flags = calloc(g->nr_cpu_flags ? g->nr_cpu_flags : 1, sizeof(char *));
	if (!out->meta.cpu_flags)
		return -ENOMEM;
	for (i = 0; i < g->nr_cpu_flags; i++)
		out->meta.cpu_flags[out->meta.nr_cpu_flags++] = strdup(g->cpu_flags[i]);
	return 0;
}

int merge_profiles(struct profile *const *in, size_t n, struct profile **out)
{
	struct profile *p = profile_new();
	struct site_index index = { 0 };
	double duration = 0;
	char *start = NULL;
	size_t i;
	int err = p ? 0 : -ENOMEM;

	overflow_field = NULL;
	for (i = 0; !err && i < n; i++)
		err = add_profile(p, &index, in[i], &duration, &start);
	for (i = 0; !err && i < p->nr_groups && !overflow_field; i++)
		if (!isfinite(p->groups[i].duration_s))
			overflow_field = "duration_s";
	if (!err && (overflow_field || !isfinite(duration))) {
		const struct profile_site *s = overflow_site;

		p_err("merge: the merged \"%s\"%s%s%s%s passes %s: refusing a sum that would be "
		      "wrong",
		      overflow_field ?: "duration_s", s ? " of site " : " of a group",
		      s ? s->target ?: "" : "", s && s->target ? ":" : "",
		      s ? s->symbol ?: "?" : "",
		      overflow_field && strcmp(overflow_field, "duration_s")
			      ? "2^64 - 1"
			      : "the largest double");
		err = -EOVERFLOW;
	}
	free(index.slots);
	if (!err && !p->nr_groups)
		err = -EINVAL;
	if (!err)
		err = sort_canonical(p) ?: fill_meta(p, duration, start);
	if (err) {
		profile_free(p);
		return err;
	}
	*out = p;
	return 0;
}
