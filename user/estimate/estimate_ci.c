// SPDX-License-Identifier: GPL-2.0
/* estimate_ci.c: the calibration part of the estimate's uncertainty, by perturbing each point */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_acc.h"
#include "estimate_ci.h"

/* The distinct point arrays the costs read (a view of erms_threshold shares its parent's). */
struct point_set {
	struct costmodel_point *pts;
	size_t n;
	bool global; /* feeds the dispatch cost: affects every bucket */
};

static int add_set(struct point_set *sets, size_t *nr, size_t cap, const struct costmodel_curve *cv,
		   bool global)
{
	size_t i;

	if (!cv || !cv->nr_points)
		return 0;
	for (i = 0; i < *nr; i++) {
		if (sets[i].pts == cv->points) {
			sets[i].global |= global;
			return 0;
		}
	}
	if (*nr == cap)
		return -ENOMEM;
	sets[(*nr)++] = (struct point_set){ cv->points, cv->nr_points, global };
	return 0;
}

/* Does a change of point i touch a bucket with data? Its influence ends at its neighbours. */
static bool point_matters(const struct point_set *s, size_t i, const bool *used)
{
	uint32_t b, from, to;

	if (s->global)
		return true;
	from = i ? cp_bucket_of(s->pts[i - 1].size) : 0;
	/* The last two points also set the line extrapolated beyond the last one. */
	to = i + 2 >= s->n ? CP_NBUCKETS - 1 : cp_bucket_of(s->pts[i + 1].size);
	for (b = from; b <= to; b++)
		if (used[b])
			return true;
	return false;
}

int est_calib_variance(struct est_costs *c, const struct est_input *in, enum est_family f,
		       const struct costmodel *m, const struct est_policy *pol, size_t np,
		       struct est_family_result *r)
{
	struct point_set sets[4 * COSTMODEL_NR_CACHES + 64];
	bool used[CP_NBUCKETS] = { false };
	size_t nsets = 0, i, j, p;
	struct est_acc *a;
	int k, b, err = 0;

	for (i = 0; i < in->nr_sites; i++)
		for (b = 0; in->sites[i].family == f && b < CP_NBUCKETS; b++)
			used[b] |= in->sites[i].n[b] > 0;
	for (k = 0; k < COSTMODEL_NR_CACHES && !err; k++) {
		if (!c->w[k])
			continue;
		err = add_set(sets, &nsets, 4 * COSTMODEL_NR_CACHES + 64, c->loop[k], false)
			      ?: add_set(sets, &nsets, 4 * COSTMODEL_NR_CACHES + 64, c->today[k],
					 false);
		if (!err && !c->string_via_dispatch[k])
			err = add_set(sets, &nsets, 4 * COSTMODEL_NR_CACHES + 64, c->string[k],
				      false);
		for (j = 0; !err && j < c->nr_dispatch[k]; j++)
			err = add_set(sets, &nsets, 4 * COSTMODEL_NR_CACHES + 64,
				      c->dispatch_curves[k][j], true);
	}
	a = malloc(sizeof(*a));
	if (err || !a) {
		free(a);
		return -ENOMEM;
	}
	for (i = 0; i < nsets; i++) {
		for (j = 0; j < sets[i].n; j++) {
			struct costmodel_point *pt = &sets[i].pts[j];
			double sigma = est_point_sigma(pt, m->runs), saved = pt->ns, t;

			if (sigma <= 0 || !point_matters(&sets[i], j, used))
				continue;
			pt->ns = saved + sigma;
			est_costs_refresh(c);
			est_acc_run(c, in, f, pol, np, NULL, a, false);
			pt->ns = saved;
			t = a->total[0];
			for (p = 0; p < np && t > 0; p++) {
				double d =
					a->total[p] / t - r->rows[p].total_ns / r->rows[0].total_ns;

				r->rows[p].var_calib += d * d;
			}
		}
	}
	est_costs_refresh(c);
	free(a);
	return 0;
}
