// SPDX-License-Identifier: GPL-2.0
/* profile.c: the in-memory profile: creation, sites, totals, release */
#include <stdlib.h>
#include <string.h>
#include "profile.h"

struct profile *profile_new(void)
{
	return calloc(1, sizeof(struct profile));
}

struct profile_site *profile_add_site(struct profile *p)
{
	struct profile_site *sites, *s;

	/* Doubling: a profile of n sites costs O(n) copies, not O(n^2) (bench/scale.sh). */
	if (p->nr_sites >= p->cap_sites) {
		size_t cap = p->nr_sites < 16 ? 16 : 2 * p->nr_sites;

		sites = realloc(p->sites, cap * sizeof(*sites));
		if (!sites)
			return NULL;
		p->sites = sites;
		p->cap_sites = cap;
	}
	sites = p->sites;
	s = &sites[p->nr_sites];
	*s = (struct profile_site){ .id = (uint32_t)p->nr_sites, .family = CF_NONE };
	p->nr_sites++;
	return s;
}

struct profile_group *profile_add_group(struct profile *p)
{
	struct profile_group *g = realloc(p->groups, (p->nr_groups + 1) * sizeof(*g));

	if (!g)
		return NULL;
	p->groups = g;
	g = &g[p->nr_groups++];
	memset(g, 0, sizeof(*g));
	return g;
}

struct profile_caller *profile_site_add_caller(struct profile_site *s)
{
	struct profile_caller *c = realloc(s->callers, (s->nr_callers + 1) * sizeof(*c));

	if (!c)
		return NULL;
	s->callers = c;
	c = &c[s->nr_callers++];
	memset(c, 0, sizeof(*c));
	return c;
}

static uint64_t less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

uint64_t profile_site_no_caller(const struct profile_site *s, struct hist_slot *rest)
{
	const struct hist_bucket *e;
	uint64_t left = 0;
	size_t i;
	uint32_t b;

	sparse_hist_dense(&s->buckets, rest);
	for (i = 0; i < s->nr_callers; i++)
		sparse_hist_for_each (&s->callers[i].buckets, e) {
			rest[e->b].count = less(rest[e->b].count, e->count);
			rest[e->b].bytes = less(rest[e->b].bytes, e->bytes);
		}
	for (b = 0; b < CP_NBUCKETS; b++)
		left += rest[b].count;
	return left;
}

static int cmp_caller(const void *a, const void *b)
{
	const struct profile_caller *x = a, *y = b;
	int d;

	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	d = strcmp(x->symbol ?: "", y->symbol ?: "");
	if (d)
		return d;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

void profile_site_sort_callers(struct profile_site *s)
{
	if (s->nr_callers)
		qsort(s->callers, s->nr_callers, sizeof(*s->callers), cmp_caller);
}

void profile_site_sum(struct profile_site *s)
{
	s->calls = sparse_hist_calls(&s->buckets);
	s->bytes = sparse_hist_bytes(&s->buckets);
}

static void strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void profile_site_clear(struct profile_site *s)
{
	size_t j;

	free(s->target);
	free(s->symbol);
	free(s->mechanism);
	free(s->len_arg);
	sparse_hist_free(&s->buckets);
	site_align_free(&s->align);
	site_dist_free(&s->dist);
	site_exact_free(&s->exact);
	site_cgroups_free(&s->cgroups);
	site_order_free(&s->order);
	sample_site_info_free(s->sample);
	free(s->mux);
	source_pos_free(s->source);
	free(s->label);
	free(s->build_id);
	for (j = 0; j < s->nr_callers; j++) {
		free(s->callers[j].target);
		free(s->callers[j].symbol);
		sparse_hist_free(&s->callers[j].buckets);
	}
	free(s->callers);
	memset(s, 0, sizeof(*s));
}

void profile_free(struct profile *p)
{
	size_t i;

	if (!p)
		return;
	host_meta_free(&p->meta);
	sample_meta_free(p->sample);
	profile_dispatch_free(p->dispatch);
	profile_glibc_free(p->glibc);
	for (i = 0; i < p->nr_sites; i++)
		profile_site_clear(&p->sites[i]);
	free(p->sites);
	for (i = 0; i < p->nr_groups; i++) {
		free(p->groups[i].kernel);
		free(p->groups[i].cpu_model);
		strv_free(p->groups[i].cpu_flags, p->groups[i].nr_cpu_flags);
		strv_free(p->groups[i].hosts, p->groups[i].nr_hosts);
	}
	free(p->groups);
	free(p);
}
