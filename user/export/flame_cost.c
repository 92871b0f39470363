// SPDX-License-Identifier: GPL-2.0
/* flame_cost.c: per-bucket time today and at a threshold, through estimate's own cost functions */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sites/copy_paths.h"
#include "estimate/estimate_acc.h"
#include "estimate/estimate_cost.h"
#include "estimate/estimate_family.h"
#include "estimate/estimate_today.h"
#include "estimate/estimate_result.h"
#include "estimate/estimate_run.h"
#include "estimate/estimate_verdict.h"
#include "flame_cost.h"

int flame_costs_init(struct flame_costs *fc, const struct profile *p, struct costmodel *m,
		     const char *model_name, const struct est_cache *cache,
		     const uint64_t *threshold, const char *const *today)
{
	size_t n;
	int err;

	memset(fc, 0, sizeof(*fc));
	fc->m = m;
	fc->model_name = model_name;
	fc->today = today;
	fc->cache = *cache;
	fc->pol[0] = est_policy_of(POLICY_TODAY, 0);
	fc->nr_pol = 1;
	if (threshold)
		fc->pol[fc->nr_pol++] = est_policy_of(POLICY_THRESHOLD, *threshold);
	err = est_inputs_from_profile(p, "profile", &fc->ins, &fc->nr_ins);
	if (err)
		return err;
	n = fc->nr_ins * EST_NR_FAMILIES;
	fc->costs = calloc(n, sizeof(*fc->costs));
	fc->resolved = calloc(n, sizeof(*fc->resolved));
	fc->one = calloc(1, sizeof(*fc->one));
	fc->acc = malloc(sizeof(*fc->acc));
	if (!fc->costs || !fc->resolved || !fc->one || !fc->acc) {
		flame_costs_free(fc);
		return -ENOMEM;
	}
	return 0;
}

void flame_costs_free(struct flame_costs *fc)
{
	size_t i;

	for (i = 0; fc->resolved && i < fc->nr_ins * EST_NR_FAMILIES; i++)
		if (fc->resolved[i])
			est_costs_release(&fc->costs[i]);
	for (i = 0; i < fc->nr_ins; i++)
		est_input_free(&fc->ins[i]);
	free(fc->ins);
	free(fc->costs);
	free(fc->resolved);
	free(fc->one);
	free(fc->acc);
	for (i = 0; i < fc->nr_sites; i++)
		free(fc->sites[i].label);
	free(fc->sites);
	memset(fc, 0, sizeof(*fc));
}

/* The costs of family @f in group @g, resolved as est_family_evaluate() does. */
static struct est_costs *costs_of(struct flame_costs *fc, size_t g, enum copy_family f, int *err)
{
	size_t k = g * EST_NR_FAMILIES + f;
	struct copy_path today;

	*err = 0;
	if (fc->resolved[k])
		return &fc->costs[k];
	*err = est_today_of(&fc->ins[g], f, fc->today ? fc->today[f] : NULL,
			    fc->m ? &fc->m->meta.machine : NULL, &today, NULL);
	if (*err)
		return NULL;
	*err = est_costs_resolve(&fc->costs[k], fc->m, fc->model_name, f, today.impl, &fc->cache);
	if (*err) {
		est_costs_release(&fc->costs[k]);
		return NULL;
	}
	fc->resolved[k] = true;
	return &fc->costs[k];
}

int flame_costs_bucket(struct flame_costs *fc, const struct profile_site *s,
		       const struct hist_slot *slot, uint32_t b, double *calls, double *today_ns,
		       double *at_ns)
{
	size_t g = s->group < fc->nr_ins ? s->group : 0;
	enum copy_family f = est_site_family(s);
	struct est_input in = fc->ins[g];
	struct est_bucket one = { .b = b, .n = (double)slot->count, .bytes = (double)slot->bytes };
	struct est_costs *c;
	int err;

	c = costs_of(fc, g, f, &err);
	if (!c)
		return err;
	/* A site of this one bucket, costed by the loop estimate runs over every site. */
	memset(fc->one, 0, sizeof(*fc->one));
	fc->one->family = f;
	fc->one->counted = true;
	fc->one->time_weighted = s->sample != NULL;
	fc->one->buckets = &one;
	fc->one->nr_buckets = slot->count ? 1 : 0;
	in.sites = fc->one;
	in.nr_sites = 1;
	est_acc_run(c, &in, f, fc->pol, fc->nr_pol, fc->one, fc->acc, false);
	fc->one->buckets = NULL; /* @one is this call's */
	*calls = fc->acc->calls;
	*today_ns = fc->acc->total[0];
	*at_ns = fc->nr_pol > 1 ? fc->acc->total[1] : 0;
	return 0;
}

static void set_figure(struct flame_site_meas *e, enum fg_meas meas,
		       const struct mixmeas_figure *fig)
{
	e->meas = meas;
	e->pct = fig->delta_pct;
	e->lo = fig->ci_low;
	e->hi = fig->ci_high;
}

int flame_costs_site_mark(struct flame_costs *fc, const char *label)
{
	struct flame_site_meas *v;
	size_t i;

	for (i = 0; i < fc->nr_sites; i++)
		if (!strcmp(fc->sites[i].label, label))
			return (int)i + 1;
	if (fc->nr_sites == fc->cap_sites) {
		size_t cap = fc->cap_sites ? 2 * fc->cap_sites : 16;

		v = realloc(fc->sites, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		fc->sites = v;
		fc->cap_sites = cap;
	}
	v = &fc->sites[fc->nr_sites];
	memset(v, 0, sizeof(*v));
	v->label = strdup(label);
	if (!v->label)
		return -ENOMEM;
	return (int)++fc->nr_sites;
}

static const enum fg_meas site_meas[] = {
	[EST_SITE_NOT_MEASURED] = FG_MEAS_NONE,
	[EST_SITE_SAVES] = FG_MEAS_SAVES,
	[EST_SITE_COSTS] = FG_MEAS_COSTS,
	[EST_SITE_SAME] = FG_MEAS_SAME,
};

int flame_costs_measured(struct flame_costs *fc, const struct est_report *r)
{
	size_t i, j;
	int k;

	for (i = 0; i < r->nr_fam; i++) {
		const struct est_family_result *fr = &r->fam[i];
		/* Measured in conditions that read differently: the sites' figures hold in one of
		 * them only (their own measurement's), so no colour claims a verdict. */
		bool depends = est_verdict(fr) == EST_VERDICT_DEPENDS;

		for (j = 0; j < fr->nr_sites; j++) {
			struct est_site_measured sm = est_site_measured(fr, &fr->sites[j]);

			if (depends)
				sm.verdict = EST_SITE_NOT_MEASURED;

			k = flame_costs_site_mark(fc, fr->sites[j].site->label);
			if (k < 0)
				return k;
			if (sm.verdict != EST_SITE_NOT_MEASURED)
				set_figure(&fc->sites[k - 1], site_meas[sm.verdict], &sm.fig);
		}
	}
	if (r->nr_fam == 1 && r->fam[0].at > 0 && r->fam[0].rows[r->fam[0].at].measured &&
	    est_verdict(&r->fam[0]) != EST_VERDICT_DEPENDS) {
		const struct est_family_result *fr = &r->fam[0];
		const struct est_row *w = &fr->rows[fr->at];
		struct mixmeas_figure fig = { w->delta_pct, w->ci_low, w->ci_high };

		set_figure(&fc->whole,
			   est_row_saves(fr, w)	  ? FG_MEAS_SAVES
			   : est_row_costs(fr, w) ? FG_MEAS_COSTS
						  : FG_MEAS_SAME,
			   &fig);
	}
	return 0;
}

static void paint(const struct flame_costs *fc, struct fg_node *n, const struct flame_site_meas *e)
{
	size_t i;

	n->meas = e ? e->meas : FG_MEAS_NONE;
	if (e && e->meas != FG_MEAS_NONE) {
		n->meas_pct = e->pct;
		n->meas_lo = e->lo;
		n->meas_hi = e->hi;
	}
	for (i = 0; i < n->nr_children; i++) {
		struct fg_node *c = n->children[i];

		paint(fc, c,
		      c->mark > 0 && (size_t)c->mark <= fc->nr_sites ? &fc->sites[c->mark - 1]
								     : NULL);
	}
}

void flame_costs_paint(const struct flame_costs *fc, struct fg_tree *t)
{
	paint(fc, &t->root, &fc->whole);
}
