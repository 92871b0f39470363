// SPDX-License-Identifier: GPL-2.0
/* estimate_model.c: every policy's total over a family's histograms, the best T, per-site rows */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asmref.h"
#include "asmref_glibc.h"
#include "sites/copy_paths.h"
#include "estimate_acc.h"
#include "estimate_ci.h"
#include "estimate_lengths.h"
#include "estimate_cost.h"
#include "estimate_digest.h"
#include "estimate_dist.h"
#include "estimate_lengths.h"
#include "estimate_model.h"
#include "estimate_order.h"
#include "estimate_today.h"
#include "profile/profile_glibc.h"
#include "lib/log.h"
#include "asmref.h"

/* A row that can be best: code the kernel could run, and measured when a measurement applies. */
static bool eligible(const struct est_family_result *r, const struct est_row *w)
{
	return w->pol.kind != POLICY_ORACLE && (!r->meas || w->measured);
}

/*
 * Today's threshold, for ties: glibc's in force; the kernel's string op alone is T=0, its loop
 * (or a dispatch, whose T a candidate replaces) never.
 */
static uint64_t today_threshold(const struct est_family_result *r)
{
	if (r->impls && r->impls->glibc)
		return r->today_knob;
	if (r->impls && r->today_impl && !strcmp(r->today_impl, r->impls->string))
		return 0;
	return POLICY_NEVER;
}

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/*
 * True if rows @a and @b do not differ beyond their intervals: the two 95% intervals overlap.
 * (Each point within the other's interval was too strict: on btrfs's mix T=128 at -48.5%
 * (-50.4 .. -47.6) and T=4096 at -47.3% (-48.7 .. -45.2) were not tied, and the run named T=128
 * where four others named T=4096.)
 */
static bool tied(const struct est_row *a, const struct est_row *b)
{
	return a->ci_low <= b->ci_high + 1e-9 && b->ci_low <= a->ci_high + 1e-9;
}

/*
 * Among the thresholds tied with the cheapest row (tied()), the one nearest today's: the
 * smallest change that gets the saving, and the same answer from runs whose noise reorders
 * the tied rows (bench/estimate_repeat.sh), for a saving (est_row_saves() of the cheapest): a
 * tied row that does not save is no candidate.
 */
static int nearest_tied(const struct est_family_result *r, int best, uint64_t t0)
{
	const struct est_row *b = &r->rows[best];
	int pick = best;
	size_t i;

	for (i = 1; i < r->nr_rows; i++) {
		const struct est_row *w = &r->rows[i], *p = &r->rows[pick];

		if (w->pol.kind != POLICY_THRESHOLD || !eligible(r, w) || !tied(w, b) ||
		    !est_row_saves(r, w))
			continue;
		if (p->pol.kind != POLICY_THRESHOLD ||
		    distance(w->pol.threshold, t0) < distance(p->pol.threshold, t0))
			pick = (int)i;
	}
	return pick;
}

void est_family_choose_best(const struct est_options *o, struct est_family_result *r)
{
	uint64_t t0 = today_threshold(r);
	double best = 0, cheapest = INFINITY, eps = 1e-9;
	int other = -1, any = -1; /* any: the first eligible row, where every one runs today's */
	size_t i;

	r->best = 0;
	r->at = -1;
	r->oracle = -1;
	for (i = 1; i < r->nr_rows; i++) {
		const struct est_row *w = &r->rows[i];

		if (w->pol.kind == POLICY_ORACLE)
			r->oracle = (int)i;
		if (o->at_set && w->pol.kind == POLICY_THRESHOLD && w->pol.threshold == o->at)
			r->at = (int)i;
		if (!eligible(r, w))
			continue;
		/*
		 * Exact ties between thresholds (no calls between them: the same code on every
		 * recorded length) go to the T nearest today's, which changes the fewest lengths
		 * the profile never saw.
		 */
		if (w->delta_pct < best - eps ||
		    (r->best > 0 && r->rows[r->best].pol.kind == POLICY_THRESHOLD &&
		     w->pol.kind == POLICY_THRESHOLD && w->delta_pct <= best + eps &&
		     distance(w->pol.threshold, t0) <
			     distance(r->rows[r->best].pol.threshold, t0))) {
			if (w->delta_pct < best)
				best = w->delta_pct;
			r->best = (int)i;
		}
		if (any < 0)
			any = (int)i;
		/* The cheapest other policy: one that runs other code than today's. */
		if (w->delta_pct < cheapest && !est_row_runs_today(w)) {
			cheapest = w->delta_pct;
			other = (int)i;
		}
	}
	if (r->best > 0 && est_row_saves(r, &r->rows[r->best])) /* else the cheapest is told */
		r->best = nearest_tied(r, r->best, t0);
	r->flat_lo = POLICY_NEVER;
	r->flat_hi = 0;
	for (i = 0; r->best > 0 && i < r->nr_rows; i++) {
		const struct est_row *w = &r->rows[i];

		if (w->pol.kind != POLICY_THRESHOLD || !eligible(r, w) ||
		    w->delta_pct > best + 100 * EST_FLAT_FRACTION * (1 + best / 100))
			continue;
		if (w->pol.threshold < r->flat_lo)
			r->flat_lo = w->pol.threshold;
		if (w->pol.threshold > r->flat_hi)
			r->flat_hi = w->pol.threshold;
	}
	/* The per-site breakdown: --at, else the best, else (today best) the next cheapest. */
	if (r->at < 0)
		r->at = r->best > 0 ? r->best : other >= 0 ? other : any >= 0 ? any : 0;
	/* A measurement can move the best: the site rows follow the row their table names. */
	for (i = 0; i < r->nr_sites; i++)
		r->sites[i].at_ns = r->sites[i].ns[r->at];
}

/* Each site's total under every policy (what the per-site table shows at r->at). */
static int site_rows(const struct est_costs *c, const struct est_input *in, enum copy_family f,
		     const struct est_policy *pol, size_t np, struct est_family_result *r)
{
	struct est_acc *a = malloc(sizeof(*a));
	size_t i, n = in->nr_sites ? in->nr_sites : 1;

	r->sites = calloc(n, sizeof(*r->sites));
	r->site_ns = calloc(n * np, sizeof(*r->site_ns));
	if (!a || !r->sites || !r->site_ns) {
		free(a);
		return -ENOMEM;
	}
	for (i = 0; i < in->nr_sites; i++) {
		double *ns = &r->site_ns[r->nr_sites * np];

		if (in->sites[i].family != f)
			continue;
		est_acc_run(c, in, f, pol, np, &in->sites[i], a, false);
		if (a->calls <= 0)
			continue;
		memcpy(ns, a->total, np * sizeof(*ns));
		r->sites[r->nr_sites++] = (struct est_site_row){ .site = &in->sites[i],
								 .calls = a->calls,
								 .today_ns = ns[0],
								 .at_ns = ns[r->at],
								 .ns = ns };
	}
	free(a);
	return 0;
}

/* glibc's policies, from the thresholds the profile's process ran with and glibc's range. */
static int glibc_policies(const struct est_input *in, const struct est_options *o,
			  const struct costmodel *m, struct est_family_result *r,
			  struct est_policy *pol, size_t *np)
{
	const struct glibc_tunable *t = NULL;
	struct est_glibc_range g = { .max = POLICY_NEVER };
	bool movsb = !strcmp(r->impls->string_op, "REP MOVSB");
	struct est_glibc_today *gt = &r->glibc;
	char base[sizeof(r->today_why)], version[96];

	if (est_today_glibc(in, r->impls, &m->meta.machine, gt))
		return -ENOENT;
	r->today_knob_known = gt->from != EST_GLIBC_FROM_RULE;
	g.today = gt->knob;
	g.dflt = gt->dflt;
	g.strict_min = movsb;
	/* Not recorded: glibc's least values, 8 x VEC for REP MOVSB (as its code uses), 1 */
	g.min = movsb ? 8 * (uint64_t)asmref_glibc_vec(asmref_find(r->impls->knob)) : 1;
	if (in->glibc && in->glibc->rep_movsb_threshold.present) {
		t = movsb ? &in->glibc->rep_movsb_threshold : &in->glibc->rep_stosb_threshold;
		g.min = t->min;
		g.max = t->max;
	}
	r->today_knob = g.today;
	r->knob_default = g.dflt;
	r->knob_min = g.min;
	r->knob_max = g.max;
	r->knob_strict_min = g.strict_min;
	version[0] = '\0';
	if (gt->major && !gt->rules_exact)
		snprintf(version, sizeof(version), "glibc %u.%u (not known: %u.%u's rules), ",
			 gt->major, gt->minor, gt->rules_major, gt->rules_minor);
	else if (gt->major)
		snprintf(version, sizeof(version), "glibc %u.%u, ", gt->major, gt->minor);
	else if (gt->from == EST_GLIBC_FROM_RULE)
		snprintf(version, sizeof(version), "glibc version not recorded: %u.%u's rules%s, ",
			 gt->rules_major, gt->rules_minor,
			 gt->model_cpu ? " on the cost model's CPU" : "");
	snprintf(base, sizeof(base), "%s", r->today_why);
	snprintf(r->today_why, sizeof(r->today_why), "%.90s, %s%s=%llu (%s)", base, version,
		 r->impls->tunable, (unsigned long long)g.today,
		 gt->from == EST_GLIBC_FROM_TUNABLES  ? "set by GLIBC_TUNABLES"
		 : gt->from == EST_GLIBC_FROM_DEFAULT ? "glibc's default"
						      : "the version's rule for this CPU");
	est_policies_make_glibc(o, &g, pol, np, &r->refused_thresholds);
	return 0;
}

/*
 * Every point of family @f's curves in @m against the limits @m records (measured by calibrate
 * in the session that measured the points): 0, or -EDOM with why in @why. A model without
 * limits (written before calibrate measured them, or from published figures) has no floor
 * here: the reader already refused a time that is not positive, and no fixed ceiling stands
 * in for a machine nobody measured (docs/calibrate.md#measured-limits).
 */
static int check_limits(const struct costmodel *m, enum copy_family f, char *why, size_t len)
{
	char reason[256];
	size_t i, j;

	if (!costmodel_limits_known(&m->limits))
		return 0;
	for (i = 0; i < m->nr_curves; i++) {
		const struct costmodel_curve *c = &m->curves[i];

		if (!c->family || est_family_parse(c->family) != (int)f)
			continue;
		for (j = 0; j < c->nr_points; j++) {
			if (!costmodel_limits_check(&m->limits, c->points[j].size, c->points[j].ns,
						    est_family(f)->has_src, reason, sizeof(reason)))
				continue;
			snprintf(why, len, "%s %s: %s", c->name, costmodel_cache_name(c->cache),
				 reason);
			return -EDOM;
		}
	}
	return 0;
}

int est_family_evaluate(const struct est_input *in, enum copy_family f, struct costmodel *m,
			const char *model_name, const struct est_options *o,
			struct est_family_result *r)
{
	struct est_policy pol[EST_MAX_POLICIES];
	struct copy_path today;
	struct est_costs c;
	struct est_acc *a;
	double *dist = NULL;
	size_t np, p;
	int err;

	memset(r, 0, sizeof(*r));
	r->family = f;
	r->share = -1;
	err = est_today_of(in, f, o->today[f], &m->meta.machine, &today, &r->today_src);
	if (err)
		return err;
	r->today_impl = today.impl;
	snprintf(r->today_why, sizeof(r->today_why), "%s", today.why);
	r->today_approx = today.approximate;
	r->today_guessed = today.guessed;
	err = est_costs_resolve(&c, m, model_name, f, today.impl, &o->cache);
	if (err)
		goto out_costs;
	{
		char why[384];

		err = check_limits(m, f, why, sizeof(why));
		if (err) {
			char limits[192];

			p_err("cost model %s: %s; the limits it records: %s. Its points cannot be "
			      "measurements of the machine it records: calibrate again",
			      model_name, why,
			      costmodel_limits_describe(&m->limits, limits, sizeof(limits)));
			goto out_costs;
		}
		err = est_costs_check_dispatch(&c, why, sizeof(why));
		if (err) {
			p_err("cost model %s: %s: physically impossible; calibrate again "
			      "(calibrate "
			      "itself measures such a model twice, then refuses it)",
			      model_name, why);
			goto out_costs;
		}
	}
	/* Recorded distances: each class at its calibrate --distance curves, where measured. */
	dist = malloc(CP_NBUCKETS * CP_NR_DIST * sizeof(*dist));
	if (!dist) {
		err = -ENOMEM;
		goto out_costs;
	}
	if (est_family_distances(in, f, dist))
		est_costs_set_dist(&c, m, today.impl, dist);
	r->dispatch_measured = c.dispatch_measured;
	r->dispatch_lo_measured = c.d_lo_measured;
	r->dispatch_hi_measured = c.d_hi_measured;
	for (p = 0; p < COSTMODEL_NR_CACHES; p++) {
		r->dispatch_lo_ns += c.w[p] * c.d_lo[p];
		r->dispatch_hi_ns += c.w[p] * c.d_hi[p];
		r->dispatch_lo_raw_ns += c.w[p] * c.d_lo_raw[p];
		r->dispatch_hi_raw_ns += c.w[p] * c.d_hi_raw[p];
	}
	r->dispatch_clamped = c.dispatch_clamped;
	r->impls = c.fi;
	if (c.fi->glibc) {
		err = glibc_policies(in, o, m, r, pol, &np);
		if (err)
			goto out_costs;
	} else
		est_policies_make(o, pol, &np);
	a = malloc(sizeof(*a));
	r->rows = calloc(np, sizeof(*r->rows));
	if (!a || !r->rows) {
		free(a);
		err = -ENOMEM;
		goto out_costs;
	}
	r->nr_rows = np;
	est_acc_run(&c, in, f, pol, np, NULL, a, true);
	r->calls = a->calls;
	r->samples = a->samples;
	r->bucket_calls = malloc(sizeof(a->bucket_calls));
	r->bucket_bytes = malloc(sizeof(a->bucket_bytes));
	if (!r->bucket_calls || !r->bucket_bytes) {
		free(a);
		err = -ENOMEM;
		goto out_costs;
	}
	memcpy(r->bucket_calls, a->bucket_calls, sizeof(a->bucket_calls));
	memcpy(r->bucket_bytes, a->bucket_bytes, sizeof(a->bucket_bytes));
	if (est_exact_collect(&c, in, f, r) || est_order_collect(in, f, r)) {
		free(a);
		err = -ENOMEM;
		goto out_costs;
	}
	est_dist_window(&c, &pol[0], r);
	r->beyond_calls = a->beyond;
	r->split_buckets = a->split;
	if (in->total_samples > 0 && a->samples > 0)
		r->share = a->samples / in->total_samples;
	for (p = 0; p < np; p++) {
		struct est_row *w = &r->rows[p];
		double t = a->total[0], ratio = t > 0 ? a->total[p] / t : 1;

		w->pol = pol[p];
		w->total_ns = a->total[p];
		w->ns_per_call = a->calls > 0 ? a->total[p] / a->calls : 0;
		w->delta_ns = a->total[p] - t;
		w->delta_pct = t > 0 ? 100 * w->delta_ns / t : 0;
		w->bound_ns = a->bound[p];
		if (t > 0)
			w->var_count = fmax(
				0, (a->saa[p] - 2 * ratio * a->sac[p] + ratio * ratio * a->scc) /
					   (t * t));
	}
	free(a);
	err = est_calib_variance(&c, in, f, m, pol, np, r);
	if (err)
		goto out_costs;
	for (p = 0; p < np; p++) {
		struct est_row *w = &r->rows[p];
		double ratio = 1 + w->delta_pct / 100, sd = sqrt(w->var_count + w->var_calib);

		/*
		 * On the ratio's logarithm (delta method), so that the interval of a cost, which
		 * cannot fall below 0, never reaches below -100%; for a small spread it is the
		 * symmetric +-1.96 sd.
		 */
		if (ratio > 0 && sd > 0) {
			w->ci_low = 100 * (ratio * exp(-1.96 * sd / ratio) - 1);
			w->ci_high = 100 * (ratio * exp(1.96 * sd / ratio) - 1);
		} else {
			w->ci_low = w->ci_high = w->delta_pct;
		}
		/*
		 * Today's row, and a row that runs today's very code on this mix, are exactly 0;
		 * another without spread has no interval.
		 */
		w->ci_known = p == 0 || w->ci_high - w->ci_low > 1e-9 || fabs(w->delta_pct) < 1e-9;
		w->model_pct = w->delta_pct;
		w->model_ci_low = w->ci_low;
		w->model_ci_high = w->ci_high;
		w->busy_pct = NAN;
	}
	est_family_choose_best(o, r);
	if (r->at >= 0)
		err = site_rows(&c, in, f, pol, np, r);
out_costs:
	est_costs_release(&c);
	free(dist);
	return err;
}
