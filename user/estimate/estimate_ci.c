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

/*
 * Calls of one bucket, as costing them needs: one site's (sampled: its calls are inferred with
 * today's cost at its own mean), or every counted site's whose mean lies between the same two
 * knots of every curve (there each cost is linear in the length, so the calls cost exactly
 * their count times the cost at their mean: one cell, however many sites). Sorted by bucket.
 */
struct cell {
	uint32_t b;
	uint32_t site;
	uint32_t seg; /* the knot segment of the mean (counted cells); UINT32_MAX: sampled */
	double n, mean;
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

/* The buckets a change of point i can touch: its influence ends at its neighbours. */
static void point_range(const struct point_set *s, size_t i, uint32_t *from, uint32_t *to)
{
	*from = i ? cp_bucket_of(s->pts[i - 1].size) : 0;
	/* The last two points also set the line extrapolated beyond the last one. */
	*to = i + 2 >= s->n ? CP_NBUCKETS - 1 : cp_bucket_of(s->pts[i + 1].size);
}

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;

	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	return x->site < y->site ? -1 : x->site > y->site;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The sizes of every point of every curve @c costs with: where a cost may bend. */
static double *knots_of(const struct est_costs *c, size_t *n)
{
	const struct costmodel_curve *cv[4 * COSTMODEL_NR_CACHES];
	size_t nc = 0, i, j, k = 0, total = 0;
	double *v;
	int s;

	for (s = 0; s < COSTMODEL_NR_CACHES; s++) {
		if (!c->w[s])
			continue;
		cv[nc++] = c->loop[s];
		cv[nc++] = c->string[s];
		cv[nc++] = c->today[s];
	}
	for (i = 0; i < nc; i++)
		total += cv[i] ? cv[i]->nr_points : 0;
	v = malloc((2 * total + 1) * sizeof(*v));
	for (i = 0; v && i < nc; i++)
		for (j = 0; cv[i] && j < cv[i]->nr_points; j++)
			v[k++] = (double)cv[i]->points[j].size;
	if (v && k)
		qsort(v, k, sizeof(*v), cmp_double);
	/*
	 * The oracle takes the cheaper of the loop and the string op: between two knots both are
	 * linear, so they cross at most once there, and that length is a knot of the oracle.
	 */
	for (i = 0, total = k; v && i + 1 < total; i++) {
		double a = v[i], b = v[i + 1];
		double da = est_cost_side(c, EST_SIDE_LOOP_BARE, a) -
			    est_cost_side(c, EST_SIDE_STRING_BARE, a);
		double db = est_cost_side(c, EST_SIDE_LOOP_BARE, b) -
			    est_cost_side(c, EST_SIDE_STRING_BARE, b);

		if (b > a && ((da < 0 && db > 0) || (da > 0 && db < 0)))
			v[k++] = a + (b - a) * da / (da - db);
	}
	if (v && k > total)
		qsort(v, k, sizeof(*v), cmp_double);
	*n = k;
	return v;
}

/* The knot segment of @x: the knots at or below it (a knot belongs to both its sides). */
static uint32_t segment_of(const double *knots, size_t n, double x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (knots[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

static int push(struct cell **v, size_t *n, size_t *cap, const struct cell *e)
{
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 256;
		struct cell *nv = realloc(*v, nc * sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = *e;
	return 0;
}

/* Sorted cells: like ones (a bucket, a segment, counted) merged into one at their mean. */
static size_t merge_cells(struct cell *v, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		struct cell *last = o ? &v[o - 1] : NULL;

		if (last && v[i].seg != UINT32_MAX && last->b == v[i].b && last->seg == v[i].seg) {
			double sum = last->n + v[i].n;

			last->mean = (last->mean * last->n + v[i].mean * v[i].n) / sum;
			last->n = sum;
			continue;
		}
		v[o++] = v[i];
	}
	return o;
}

/* The family's cells, sorted by bucket; @first[b] is the first cell of bucket b. */
static struct cell *make_cells(const struct est_costs *c, const struct est_input *in,
			       enum copy_family f, size_t *nr, size_t *first)
{
	struct cell *v = NULL;
	size_t i, n = 0, cap = 0, nk = 0;
	double *knots = knots_of(c, &nk);
	int b, err = knots ? 0 : -ENOMEM;
	uint32_t k;

	for (i = 0; !err && i < in->nr_sites; i++) {
		const struct est_site *s = &in->sites[i];

		for (k = 0; !err && s->family == f && k < s->nr_buckets; k++) {
			const struct est_bucket *eb = &s->buckets[k];
			double lo = (double)hist_bucket_lo(eb->b),
			       hi = (double)hist_bucket_hi(eb->b);
			struct cell e = { .b = eb->b, .site = (uint32_t)i, .n = eb->n };

			/* As est_acc_run() costs it. */
			e.mean = eb->bytes / eb->n;
			e.mean = e.mean < lo ? lo : e.mean > hi - 1 ? hi - 1 : e.mean;
			e.seg = s->time_weighted ? UINT32_MAX : segment_of(knots, nk, e.mean);
			err = push(&v, &n, &cap, &e);
		}
	}
	free(knots);
	if (err) {
		free(v);
		return NULL;
	}
	if (n) {
		qsort(v, n, sizeof(*v), cmp_cell);
		n = merge_cells(v, n);
	}
	for (b = 0, i = 0; b <= CP_NBUCKETS; b++) {
		while (i < n && v[i].b < (uint32_t)b)
			i++;
		first[b] = i;
	}
	*nr = n;
	return v ? v : malloc(1);
}

/* Every policy's total over cells [a, z) with the costs as they are now. */
static void cells_total(const struct est_costs *c, const struct est_input *in,
			const struct est_policy *pol, size_t np, const struct cell *cells, size_t a,
			size_t z, double *total)
{
	size_t i, p;

	memset(total, 0, np * sizeof(*total));
	for (i = a; i < z; i++) {
		const struct cell *e = &cells[i];
		uint64_t lo = hist_bucket_lo(e->b), hi = hist_bucket_hi(e->b);
		double calls = e->n * est_calls_per_unit(c, in, &in->sites[e->site], e->mean);
		bool split;

		for (p = 0; p < np; p++)
			total[p] += calls *
				    est_cost_bucket(c, &pol[p], lo, hi, 1, e->mean, NULL, &split);
	}
}

/*
 * The calls each threshold policy sends to each side of its dispatch (below T: the loop, from
 * T: the string op; a bucket T splits, by the uniform share est_cost_bucket() assumes): a change
 * of the dispatch cost moves a policy's total by exactly these calls times the change.
 */
static void dispatch_calls(const struct est_costs *c, const struct est_input *in,
			   const struct est_policy *pol, size_t np, const struct cell *cells,
			   size_t a, size_t z, double *below, double *from)
{
	size_t i, p;

	memset(below, 0, np * sizeof(*below));
	memset(from, 0, np * sizeof(*from));
	for (i = a; i < z; i++) {
		const struct cell *e = &cells[i];
		uint64_t lo = hist_bucket_lo(e->b), hi = hist_bucket_hi(e->b);
		double calls = e->n * est_calls_per_unit(c, in, &in->sites[e->site], e->mean);

		for (p = 0; p < np; p++) {
			uint64_t t = est_string_from(c, pol[p].threshold);
			double share;

			if (pol[p].kind != POLICY_THRESHOLD)
				continue;
			share = t <= lo ? 0 : t >= hi ? 1 : (double)(t - lo) / (double)(hi - lo);
			below[p] += calls * share;
			from[p] += calls * (1 - share);
		}
	}
}

/* The string op behind the dispatch is the dispatch curve itself in some cache state. */
static bool any_via_dispatch(const struct est_costs *c)
{
	int k;

	for (k = 0; k < COSTMODEL_NR_CACHES; k++)
		if (c->w[k] && c->string_via_dispatch[k])
			return true;
	return false;
}

static int collect_sets(const struct est_costs *c, struct point_set *sets, size_t cap, size_t *n)
{
	size_t j;
	int k, err = 0;

	*n = 0;
	for (k = 0; k < COSTMODEL_NR_CACHES && !err; k++) {
		if (!c->w[k])
			continue;
		err = add_set(sets, n, cap, c->loop[k], false)
			      ?: add_set(sets, n, cap, c->today[k], false);
		if (!err && !c->string_via_dispatch[k])
			err = add_set(sets, n, cap, c->string[k], false);
		for (j = 0; !err && j < c->nr_dispatch[k]; j++)
			err = add_set(sets, n, cap, c->dispatch_curves[k][j], true);
	}
	return err;
}

/*
 * Each point is moved by its standard error and every policy's total recomputed where it can
 * change: a point of a curve changes the costs of the buckets between its neighbours only, so
 * only those cells are costed again (before and after); a point of the dispatch replica
 * changes d_lo and d_hi, which add to a threshold policy's total exactly the calls on each
 * side times their change. One pass over the cells then, instead of one per point
 * (bench/scale.sh). Where the dispatch curve also stands in for the string op (a model of
 * published figures), its points are costed over every cell.
 */
int est_calib_variance(struct est_costs *c, const struct est_input *in, enum copy_family f,
		       const struct costmodel *m, const struct est_policy *pol, size_t np,
		       struct est_family_result *r)
{
	struct point_set sets[4 * COSTMODEL_NR_CACHES + 64];
	double base[EST_MAX_POLICIES], old[EST_MAX_POLICIES], now[EST_MAX_POLICIES];
	double below[EST_MAX_POLICIES], from[EST_MAX_POLICIES];
	double rbelow[EST_MAX_POLICIES], rfrom[EST_MAX_POLICIES];
	double dlo[COSTMODEL_NR_CACHES], dhi[COSTMODEL_NR_CACHES];
	size_t first[CP_NBUCKETS + 1], nsets, ncells, i, j, p;
	const struct est_family_impls *fi = c->fi;
	bool via = any_via_dispatch(c);
	struct cell *cells;
	int k, err;

	err = collect_sets(c, sets, sizeof(sets) / sizeof(sets[0]), &nsets);
	if (err)
		return err;
	cells = make_cells(c, in, f, &ncells, first);
	if (!cells)
		return -ENOMEM;
	for (p = 0; p < np; p++)
		base[p] = r->rows[p].total_ns;
	dispatch_calls(c, in, pol, np, cells, 0, ncells, below, from);
	memcpy(dlo, c->d_lo, sizeof(dlo));
	memcpy(dhi, c->d_hi, sizeof(dhi));
	for (i = 0; i < nsets; i++) {
		for (j = 0; j < sets[i].n; j++) {
			struct costmodel_point *pt = &sets[i].pts[j];
			double sigma = est_point_sigma(pt, m->runs), saved = pt->ns;
			uint32_t lo_b, hi_b;
			size_t a, z;

			if (sigma <= 0)
				continue;
			r->curves_noisy = true;
			point_range(&sets[i], j, &lo_b, &hi_b);
			a = sets[i].global && via ? 0 : first[lo_b];
			z = sets[i].global && via ? ncells : first[hi_b + 1];
			if (!sets[i].global && a == z && !fi->dispatch)
				continue; /* no bucket with calls depends on it, nor the dispatch */
			cells_total(c, in, pol, np, cells, a, z, old);
			dispatch_calls(c, in, pol, np, cells, a, z, rbelow, rfrom);
			pt->ns = saved + sigma;
			est_costs_refresh(c);
			cells_total(c, in, pol, np, cells, a, z, now);
			for (p = 0; p < np; p++) {
				now[p] += base[p] - old[p];
				/*
				 * Beyond a..z (costed again above) only the dispatch cost can change:
				 * every point can move it (d_lo, d_hi are the dispatch replica's
				 * points minus the loop's and the string op's), by the calls on each
				 * side of the rest of the cells times the change.
				 */
				for (k = 0; k < COSTMODEL_NR_CACHES; k++)
					now[p] += c->w[k] *
						  ((c->d_lo[k] - dlo[k]) * (below[p] - rbelow[p]) +
						   (c->d_hi[k] - dhi[k]) * (from[p] - rfrom[p]));
			}
			pt->ns = saved;
			est_costs_refresh(c); /* the next point's "before" is the model's own */
			for (p = 0; p < np && now[0] > 0 && base[0] > 0; p++) {
				double d = now[p] / now[0] - base[p] / base[0];

				r->rows[p].var_calib += d * d;
			}
		}
	}
	est_costs_refresh(c);
	free(cells);
	return 0;
}
