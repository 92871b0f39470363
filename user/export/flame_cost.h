/* SPDX-License-Identifier: GPL-2.0 */
/* flame_cost.h: a flame graph length frame's time, today and at a threshold, by estimate's code */
#ifndef CP_FLAME_COST_H
#define CP_FLAME_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "costmodel/costmodel.h"
#include "tree.h"
#include "estimate/estimate_input.h"
#include "estimate/estimate_options.h"
#include "estimate/estimate_policy.h"
#include "profile/profile.h"

struct est_costs;
struct est_acc;
struct est_report;

/* One estimate site row's own measured figure at the threshold drawn (or FG_MEAS_NONE). */
struct flame_site_meas {
	char *label; /* est_site_label() */
	enum fg_meas meas;
	double pct, lo, hi;
};

/*
 * What estimate's per-site rows are made of, per bucket: a profile's groups (each has its
 * kernel and CPU flags, so its own code today) and, per group and family, the costs resolved
 * from a cost model as est_family_evaluate() resolves them, without the mix correction (the
 * pure model, as `estimate --no-mix-correction`).
 */
struct flame_costs {
	struct costmodel *m;
	const char *model_name;
	const char *const *today; /* --today per family, or NULL (est_today_of()) */
	struct est_cache cache;
	struct est_policy pol[2]; /* today and the threshold */
	size_t nr_pol;		  /* 1: time today only */
	struct est_input *ins;	  /* one per group of the profile */
	size_t nr_ins;
	struct est_costs *costs; /* [group * EST_NR_FAMILIES + family], resolved on first use */
	bool *resolved;
	/* the threshold view's colours: each site row's measurement (flame_costs_measured()),
	 * rows met while drawing added as not measured; the whole mix's, for the root */
	struct flame_site_meas *sites;
	size_t nr_sites, cap_sites;
	struct flame_site_meas whole;
	struct est_site *one; /* scratch: a site with one bucket */
	struct est_acc *acc;  /* scratch */
};

/*
 * Prepares costing @p's buckets with @m in @cache, today and, if @threshold, at T = *@threshold
 * (POLICY_NEVER: never). 0 or -ENOMEM.
 */
int flame_costs_init(struct flame_costs *fc, const struct profile *p, struct costmodel *m,
		     const char *model_name, const struct est_cache *cache,
		     const uint64_t *threshold, const char *const *today);
void flame_costs_free(struct flame_costs *fc);

/*
 * Bucket @b of site @s, whose (or whose caller's) slot is @slot: *@calls (samples converted to
 * calls for a sampled site), *@today_ns and *@at_ns (0 without a threshold), as estimate
 * costs them. 0, or -ENOENT when the model lacks a curve the site's family needs (printed).
 */
int flame_costs_bucket(struct flame_costs *fc, const struct profile_site *s,
		       const struct hist_slot *slot, uint32_t b, double *calls, double *today_ns,
		       double *at_ns);

/*
 * The threshold view's colours from @r, the estimate at the threshold drawn (--threshold: its
 * per-site row): each site row's own measured figure (est_site_measured()) and the whole mix's
 * (its row at T, where measured; a profile of one family only). 0 or -ENOMEM.
 */
int flame_costs_measured(struct flame_costs *fc, const struct est_report *r);
/* The mark (fg_tree_mark()) of the site row called @label, added unmeasured if new; < 0: no memory. */
int flame_costs_site_mark(struct flame_costs *fc, const char *label);
/*
 * Colours every frame of @t from the measurements: a frame whose calls are all one site row's
 * takes that row's, the root the whole mix's, any other frame none (not measured).
 */
void flame_costs_paint(const struct flame_costs *fc, struct fg_tree *t);

#endif
