// SPDX-License-Identifier: GPL-2.0
/* estimate_policy.c: the policies of an estimate, named as its rows are */
#include <stdio.h>
#include "estimate_policy.h"

struct est_policy est_policy_of(enum policy_kind kind, uint64_t threshold)
{
	struct est_policy p = { .kind = kind, .threshold = threshold };
	struct policy_key k = est_policy_key(&p);

	policy_key_name(&k, p.name, sizeof(p.name));
	return p;
}

void est_policies_make(const struct est_options *o, struct est_policy *pol, size_t *np)
{
	size_t n = 0, i;

	pol[n++] = est_policy_of(POLICY_TODAY, 0);
	pol[n++] = est_policy_of(POLICY_ALWAYS, 0);
	for (i = 0; i < o->nr_thresholds; i++)
		pol[n++] = est_policy_of(POLICY_THRESHOLD, o->thresholds[i]);
	pol[n++] = est_policy_of(POLICY_ORACLE, 0);
	*np = n;
}

/* glibc's default candidates: the powers of two a service owner would try, and "never". */
static const uint64_t glibc_candidates[] = { 1024, 2048, 4096, 8192, 16384, 32768, POLICY_NEVER };

static bool glibc_accepts(const struct est_glibc_range *g, uint64_t t)
{
	if (t == POLICY_NEVER)
		return true;
	return (g->strict_min ? t > g->min : t >= g->min) && t <= g->max;
}

static void add_threshold(struct est_policy *pol, size_t *n, uint64_t t)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (pol[i].kind == POLICY_THRESHOLD && pol[i].threshold == t)
			return;
	pol[(*n)++] = est_policy_of(POLICY_THRESHOLD, t);
}

static int cmp_threshold(const void *a, const void *b)
{
	const struct est_policy *x = a, *y = b;

	return x->threshold < y->threshold ? -1 : x->threshold > y->threshold;
}

void est_policies_make_glibc(const struct est_options *o, const struct est_glibc_range *g,
			     struct est_policy *pol, size_t *np, size_t *refused)
{
	size_t n = 0, i, first;

	*refused = 0;
	pol[n] = est_policy_of(POLICY_TODAY, 0);
	pol[n++].threshold = g->today; /* costed as the threshold in force; its key stays today */
	first = n;
	if (o->thresholds_given) {
		for (i = 0; i < o->nr_thresholds && n < EST_MAX_POLICIES - 1; i++) {
			if (!glibc_accepts(g, o->thresholds[i]))
				(*refused)++;
			else if (o->thresholds[i] != g->today)
				add_threshold(pol, &n, o->thresholds[i]);
		}
	} else {
		/* glibc's least accepted value, the powers of two, glibc's default, never */
		uint64_t least = g->strict_min ? g->min + 1 : g->min;

		if (glibc_accepts(g, least) && least != g->today)
			add_threshold(pol, &n, least);
		for (i = 0; i < sizeof(glibc_candidates) / sizeof(glibc_candidates[0]); i++)
			if (glibc_accepts(g, glibc_candidates[i]) &&
			    glibc_candidates[i] != g->today)
				add_threshold(pol, &n, glibc_candidates[i]);
		if (g->dflt != g->today && glibc_accepts(g, g->dflt))
			add_threshold(pol, &n, g->dflt);
	}
	if (o->at_set && glibc_accepts(g, o->at) && o->at != g->today)
		add_threshold(pol, &n, o->at);
	qsort(pol + first, n - first, sizeof(*pol), cmp_threshold);
	pol[n++] = est_policy_of(POLICY_ORACLE, 0);
	*np = n;
}
