// SPDX-License-Identifier: GPL-2.0
/* estimate_cost.c: per-call costs of a family's policies from a cost model, and bucket costing */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/median.h"
#include "estimate_cost.h"
#include "estimate_impls.h"
#include "lib/log.h"

/* erms_threshold's T when a curve does not say: the replica's default. */
#define DISPATCH_DEFAULT_T 2048
/* Dispatch cost from the string op side: the first few sizes, where noise is smallest. */
#define DISPATCH_HI_POINTS 3
/* Runs assumed when a model does not say (calibrate's default). */
#define DEFAULT_RUNS 5

/* What is missing, in @why: the caller says it as an error, or as what it leaves out. */
static int missing(char *why, size_t len, const char *model_name, const char *impl,
		   enum costmodel_cache cache, enum copy_family f, const char *role)
{
	snprintf(why, len,
		 "cost model %s has no curve for %s in cache state %s (%s of %s): measure it with "
		 "copyprof calibrate, or choose another --cache/--family",
		 model_name, impl, costmodel_cache_name(cache), role, est_family(f)->name);
	return -ENOENT;
}

static uint64_t curve_threshold(const struct costmodel_curve *d)
{
	return d->threshold >= 0 ? (uint64_t)d->threshold : DISPATCH_DEFAULT_T;
}

/* Index of the first point at or above @t (points are sorted by size). */
static size_t first_at_or_above(const struct costmodel_curve *d, uint64_t t)
{
	size_t i = 0;

	while (i < d->nr_points && d->points[i].size < t)
		i++;
	return i;
}

/*
 * The dispatch cost from several differences: weighted by the inverse of their variance when
 * every point has a known spread (a 1 MiB point's noise dwarfs a 1 ns branch), else the median.
 */
static double combine(double *v, double *var, size_t n, double *sd)
{
	double sw = 0, s = 0;
	size_t i;

	*sd = 0; /* unknown */
	for (i = 0; i < n; i++) {
		if (var[i] <= 0)
			return median_sorted(v, n); /* n > i: never the NAN of no values */
		s += v[i] / var[i];
		sw += 1 / var[i];
	}
	if (n)
		*sd = sqrt(1 / sw);
	return n ? s / sw : 0;
}

double est_point_sigma(const struct costmodel_point *p, int runs)
{
	double range;

	/* calibrate's own interval of the median (1.96 sigma), where it wrote one. */
	if (p->ci > 0)
		return p->ci / 1.96;
	if (p->ns_max > 0 && p->ns_max >= p->ns_min)
		range = p->ns_max - p->ns_min;
	else if (p->spread >= 0)
		range = p->spread * p->ns;
	else
		return 0; /* published figures: no spread known */
	if (runs < 2)
		runs = DEFAULT_RUNS;
	/*
	 * sigma of one run = range / d2(runs); the point is the median of the runs, whose
	 * standard error is about 1.2533 * sigma / sqrt(runs).
	 */
	return 1.2533 * (range / tippett_d2((size_t)runs)) / sqrt(runs);
}

static double diff_var(const struct est_costs *c, const struct costmodel_point *p,
		       const struct costmodel_curve *base)
{
	const struct costmodel_point *q = costmodel_point_at(base, p->size);
	double a = est_point_sigma(p, c->runs), b = q ? est_point_sigma(q, c->runs) : 0;

	return a > 0 && b > 0 ? a * a + b * b : 0;
}

void est_costs_refresh(struct est_costs *c)
{
	const struct est_family_impls *fi = c->fi;
	int k;

	c->dispatch_clamped = false;
	for (k = 0; k < COSTMODEL_NR_CACHES; k++) {
		double lo[64], hi[64], vlo[64], vhi[64];
		size_t nlo = 0, nhi = 0, i;

		c->d_lo[k] = c->d_hi[k] = 0;
		if (!c->w[k] || !fi->dispatch || !c->dispatch_curves[k])
			continue;
		for (i = 0; i < c->nr_dispatch[k]; i++) {
			const struct costmodel_curve *d = c->dispatch_curves[k][i];
			size_t j, start = first_at_or_above(d, curve_threshold(d));

			for (j = 0; j < start && nlo < 64; j++, nlo++) {
				lo[nlo] = d->points[j].ns -
					  costmodel_cost_ns(c->loop[k], (double)d->points[j].size);
				vlo[nlo] = diff_var(c, &d->points[j], c->loop[k]);
			}
			for (j = start;
			     c->string[k] && !c->string_via_dispatch[k] && j < d->nr_points &&
			     j < start + DISPATCH_HI_POINTS && nhi < 64;
			     j++, nhi++) {
				hi[nhi] =
					d->points[j].ns -
					costmodel_cost_ns(c->string[k], (double)d->points[j].size);
				vhi[nhi] = diff_var(c, &d->points[j], c->string[k]);
			}
		}
		c->d_lo[k] = combine(lo, vlo, nlo, &c->d_lo_sd[k]);
		c->d_hi[k] = combine(hi, vhi, nhi, &c->d_hi_sd[k]);
		/*
		 * A dispatch cannot cost less than nothing: a negative difference within the runs'
		 * spread (est_costs_check_dispatch() refuses the others) is noise, taken as 0.
		 */
		c->dispatch_clamped |= c->d_lo[k] < 0 || c->d_hi[k] < 0;
		c->d_lo_raw[k] = c->d_lo[k];
		c->d_hi_raw[k] = c->d_hi[k];
		c->d_lo[k] = fmax(c->d_lo[k], 0);
		c->d_hi[k] = fmax(c->d_hi[k], 0);
		c->d_lo_measured |= nlo > 0;
		c->d_hi_measured |= nhi > 0 || c->string_via_dispatch[k];
	}
}

static const struct costmodel_curve *find_dispatch(const struct costmodel *m, const char *name,
						   enum costmodel_cache cache, size_t *n,
						   const struct costmodel_curve ***all)
{
	size_t i;

	*n = 0;
	*all = calloc(m->nr_curves ? m->nr_curves : 1, sizeof(**all));
	if (!*all)
		return NULL;
	for (i = 0; i < m->nr_curves; i++)
		if (m->curves[i].cache == cache && !strcmp(m->curves[i].name, name) &&
		    m->curves[i].nr_points &&
		    costmodel_curve_dist(&m->curves[i]) != CP_DIST_AHEAD &&
		    costmodel_curve_dist(&m->curves[i]) != CP_DIST_BEHIND)
			(*all)[(*n)++] = &m->curves[i];
	return *n ? (*all)[0] : NULL;
}

static void track_max(struct est_costs *c, const struct costmodel_curve *cv)
{
	double last;

	if (!cv || !cv->nr_points)
		return;
	last = (double)cv->points[cv->nr_points - 1].size;
	if (!c->max_size || last < c->max_size)
		c->max_size = last;
}

int est_costs_resolve(struct est_costs *c, const struct costmodel *m, const char *model_name,
		      enum copy_family f, const char *today_impl, const struct est_cache *cache)
{
	char why[512];
	int err = est_costs_try(c, m, model_name, f, today_impl, cache, why, sizeof(why));

	if (err == -ENOENT)
		p_err("%s", why);
	return err;
}

int est_costs_try(struct est_costs *c, const struct costmodel *m, const char *model_name,
		  enum copy_family f, const char *today_impl, const struct est_cache *cache,
		  char *why, size_t why_len)
{
	const struct est_family_impls *fi = est_impls_for(f, today_impl);
	double sum = 0;
	int k;

	memset(c, 0, sizeof(*c));
	c->family = f;
	c->fi = fi;
	c->runs = m->runs;
	memcpy(c->w, cache->w, sizeof(c->w));
	if (!fi->has_src) {
		c->w[COSTMODEL_WARM] += c->w[COSTMODEL_SRC_FLUSHED];
		c->w[COSTMODEL_SRC_FLUSHED] = 0;
	}
	for (k = 0; k < COSTMODEL_NR_CACHES; k++)
		sum += c->w[k];
	for (k = 0; k < COSTMODEL_NR_CACHES; k++) {
		const struct costmodel_curve *d = NULL;

		c->w[k] /= sum;
		if (!c->w[k])
			continue;
		c->loop[k] = costmodel_find(m, fi->loop, k);
		c->string[k] = costmodel_find(m, fi->string, k);
		/* glibc's today is a threshold like the others, costed from the same two curves */
		c->today[k] = costmodel_find(m, fi->glibc ? fi->loop : today_impl, k);
		if (fi->dispatch) {
			d = find_dispatch(m, fi->dispatch, k, &c->nr_dispatch[k],
					  &c->dispatch_curves[k]);
			if (!c->dispatch_curves[k])
				return -ENOMEM;
		}
		if (!c->loop[k] || !c->loop[k]->nr_points)
			return missing(why, why_len, model_name, fi->loop, k, f, "the loop");
		if ((!c->string[k] || !c->string[k]->nr_points) && d) {
			size_t start = first_at_or_above(d, curve_threshold(d));

			if (start < d->nr_points) {
				c->string_side[k] = *d;
				c->string_side[k].points = d->points + start;
				c->string_side[k].nr_points = d->nr_points - start;
				c->string[k] = &c->string_side[k];
				c->string_via_dispatch[k] = true;
			}
		}
		if (!c->string[k] || !c->string[k]->nr_points)
			return missing(why, why_len, model_name, fi->string, k, f, "the string op");
		if (!c->today[k] || !c->today[k]->nr_points)
			return missing(why, why_len, model_name, today_impl, k, f,
				       "today's implementation");
		c->dispatch_measured |= c->nr_dispatch[k] > 0;
		track_max(c, c->loop[k]);
		track_max(c, c->string[k]);
		track_max(c, c->today[k]);
	}
	est_costs_refresh(c);
	return 0;
}

void est_costs_release(struct est_costs *c)
{
	int k;

	for (k = 0; k < CP_NR_DIST; k++) /* copies: the dispatch curves are @c's */
		free(c->at[k]);
	for (k = 0; k < COSTMODEL_NR_CACHES; k++)
		free(c->dispatch_curves[k]);
}

static double side_at(const struct est_costs *c, int k, enum est_side side, double n)
{
	switch (side) {
	case EST_SIDE_TODAY:
		return costmodel_cost_ns(c->today[k], n);
	case EST_SIDE_LOOP:
		return costmodel_cost_ns(c->loop[k], n) + c->d_lo[k];
	case EST_SIDE_STRING:
		/* A stand-in from erms_threshold already includes the dispatch. */
		return costmodel_cost_ns(c->string[k], n) +
		       (c->string_via_dispatch[k] ? 0 : c->d_hi[k]);
	case EST_SIDE_LOOP_BARE:
		return costmodel_cost_ns(c->loop[k], n);
	case EST_SIDE_STRING_BARE:
		return costmodel_cost_ns(c->string[k], n);
	}
	return NAN;
}

double est_cost_side(const struct est_costs *c, enum est_side side, double n)
{
	double sum = 0;
	int k;

	for (k = 0; k < COSTMODEL_NR_CACHES; k++)
		if (c->w[k])
			sum += c->w[k] * side_at(c, k, side, n);
	return sum;
}

static const struct costmodel_curve *side_curve(const struct est_costs *c, int k,
						enum est_side side)
{
	switch (side) {
	case EST_SIDE_TODAY:
		return c->today[k];
	case EST_SIDE_LOOP:
	case EST_SIDE_LOOP_BARE:
		return c->loop[k];
	default:
		return c->string[k];
	}
}

/*
 * Costing a bucket at its mean: the cost f is piecewise linear with knots at the measured
 * sizes. Let g be the chord of f over the bucket's lengths [lo, hi-1]; g is linear, so the sum
 * of g over the calls is exactly calls * g(mean), and the error of calls * f(mean) is
 * sum(f - g)(len) - calls * (f - g)(mean). f - g is 0 at both ends and piecewise linear, so both
 * terms lie in [min, max] of f - g over the knots inside the bucket: the error is at most
 * calls * (max - min). It is 0 where f is linear over the bucket (no knot inside), in every
 * exact bucket below 64, and when every call has the same length.
 */
static double side_bound(const struct est_costs *c, enum est_side side, uint64_t lo, uint64_t hi)
{
	double a = (double)lo, b = (double)hi - 1, fa, fb, hiw = 0, low = 0;
	int k;

	if (hi - lo <= 1)
		return 0;
	fa = est_cost_side(c, side, a);
	fb = est_cost_side(c, side, b);
	for (k = 0; k < COSTMODEL_NR_CACHES; k++) {
		const struct costmodel_curve *cv = side_curve(c, k, side);
		size_t i;

		if (!c->w[k] || !cv)
			continue;
		for (i = 0; i < cv->nr_points; i++) {
			double x = (double)cv->points[i].size, e;

			if (x <= a || x >= b)
				continue;
			e = est_cost_side(c, side, x) - (fa + (fb - fa) * (x - a) / (b - a));
			if (e > hiw)
				hiw = e;
			if (e < low)
				low = e;
		}
	}
	return hiw - low;
}

uint64_t est_string_from(const struct est_costs *c, uint64_t t)
{
	return c->fi->glibc && t != POLICY_NEVER ? t + 1 : t;
}

/* est_cost_bucket() at one pointer distance: @c's curves. */
static double bucket_cost(const struct est_costs *c, const struct est_policy *p, uint64_t lo,
			  uint64_t hi, double calls, double mean, double *bound, bool *split)
{
	enum est_side side;
	double l, s;
	uint64_t t;

	switch (p->kind) {
	case POLICY_TODAY:
		if (c->fi->glibc)
			return bucket_cost(c,
					   &(struct est_policy){ .kind = POLICY_THRESHOLD,
								 .threshold = p->threshold },
					   lo, hi, calls, mean, bound, split);
		side = EST_SIDE_TODAY;
		break;
	case POLICY_ALWAYS:
		side = EST_SIDE_STRING_BARE;
		break;
	case POLICY_ORACLE:
		/* The cheaper implementation at this length, with a free dispatch. */
		l = est_cost_side(c, EST_SIDE_LOOP_BARE, mean);
		s = est_cost_side(c, EST_SIDE_STRING_BARE, mean);
		side = l <= s ? EST_SIDE_LOOP_BARE : EST_SIDE_STRING_BARE;
		break;
	default:
		t = est_string_from(c, p->threshold);
		if (t <= lo) {
			side = EST_SIDE_STRING;
		} else if (t >= hi) {
			side = EST_SIDE_LOOP;
		} else {
			/*
			 * T inside the bucket: how many calls fall below T is not recorded. Assume
			 * the lengths uniform over the bucket; whatever the split, the cost lies
			 * between calls * loop and calls * string at the mean, which is the bound.
			 */
			double below = (double)(t - lo) / (double)(hi - lo);

			l = est_cost_side(c, EST_SIDE_LOOP, ((double)lo + (double)t - 1) / 2);
			s = est_cost_side(c, EST_SIDE_STRING, ((double)t + (double)hi - 1) / 2);
			*split = true;
			if (bound)
				*bound = calls * fabs(est_cost_side(c, EST_SIDE_LOOP, mean) -
						      est_cost_side(c, EST_SIDE_STRING, mean));
			return calls * (below * l + (1 - below) * s);
		}
	}
	if (bound)
		*bound = calls * side_bound(c, side, lo, hi);
	return calls * est_cost_side(c, side, mean);
}

double est_calls_per_unit(const struct est_costs *c, const struct est_input *in,
			  const struct est_site *s, double mean)
{
	double ns_per_sample, today;

	if (!s->time_weighted)
		return 1;
	/*
	 * A sample lands in a call with probability proportional to its duration: the samples of
	 * a bucket are (time spent there) * rate, so calls = samples * (ns per sample) / cost.
	 * Without a sampling rate the scale is unknown and only ratios mean anything.
	 */
	ns_per_sample = in->sample_hz > 0 ? 1e9 / in->sample_hz : 1;
	today = est_cost_side(c, EST_SIDE_TODAY, mean);
	return ns_per_sample / (today > 0.01 ? today : 0.01);
}

/*
 * Every point of one side of dispatch curve @d (below its T against the loop, from it against
 * the string op) ran faster in its slowest run than @base in its fastest, by more than the
 * slack: the runs do not even overlap. 0 if some point overlaps or none can be compared.
 */
static int side_impossible(const struct costmodel_curve *d, const struct costmodel_curve *base,
			   bool from_t, double *worst)
{
	size_t j, start = first_at_or_above(d, curve_threshold(d)), n = 0;
	size_t lo = from_t ? start : 0, hi = from_t ? start + DISPATCH_HI_POINTS : start;

	*worst = 0;
	for (j = lo; j < hi && j < d->nr_points; j++) {
		const struct costmodel_point *p = &d->points[j];
		const struct costmodel_point *q = base ? costmodel_point_at(base, p->size) : NULL;

		if (!q || !(p->ns_max > 0) || !(q->ns_min > 0))
			continue;
		if (p->ns_max >= q->ns_min - EST_DISPATCH_SLACK_NS)
			return 0;
		if (p->ns - q->ns < *worst)
			*worst = p->ns - q->ns;
		n++;
	}
	return n > 0;
}

int est_costs_check_dispatch(const struct est_costs *c, char *why, size_t len)
{
	const struct est_family_impls *fi = c->fi;
	double worst;
	size_t i;
	int k, side;

	for (k = 0; k < COSTMODEL_NR_CACHES && fi->dispatch; k++) {
		for (i = 0; c->w[k] && i < c->nr_dispatch[k]; i++) {
			for (side = 0; side < 2; side++) {
				const struct costmodel_curve *base =
					side ? c->string[k] : c->loop[k];

				if (side && c->string_via_dispatch[k])
					continue;
				if (!side_impossible(c->dispatch_curves[k][i], base, side, &worst))
					continue;
				snprintf(
					why, len,
					"the dispatch replica %s costs %+.2f ns against %s %s T in "
					"cache state %s, slower in none of its runs: a compare and "
					"branch cannot save time",
					fi->dispatch, worst, side ? fi->string : fi->loop,
					side ? "from" : "below", costmodel_cache_name(k));
				return -EDOM;
			}
		}
	}
	return 0;
}

int est_model_check_dispatch(const struct costmodel *m, char *why, size_t len)
{
	int f, k, err = 0;

	for (f = 0; f < EST_NR_FAMILIES && !err; f++) {
		const struct est_family_impls *fi = est_family(f);

		for (k = 0; k < COSTMODEL_NR_CACHES && !err && fi->dispatch; k++) {
			struct est_cache one = { .w = { 0 } };
			struct est_costs c;

			if (!costmodel_find(m, fi->dispatch, k) ||
			    !costmodel_find(m, fi->loop, k) || !costmodel_find(m, fi->string, k))
				continue; /* nothing to compare it with */
			one.w[k] = 1;
			err = est_costs_resolve(&c, m, "", f, fi->loop, &one);
			if (!err)
				err = est_costs_check_dispatch(&c, why, len);
			est_costs_release(&c);
		}
	}
	return err;
}

double est_cost_bucket(const struct est_costs *c, const struct est_policy *p, uint64_t lo,
		       uint64_t hi, double calls, double mean, double *bound, bool *split)
{
	const double *d = c->dist ? &c->dist[cp_bucket_of(lo) * CP_NR_DIST] : NULL;
	double sum = 0, cost = 0, b = 0, one;
	int cls;

	for (cls = 0; d && cls < CP_NR_DIST; cls++)
		sum += d[cls];
	if (!(sum > 0) || (!c->at[CP_DIST_AHEAD] && !c->at[CP_DIST_BEHIND]))
		return bucket_cost(c, p, lo, hi, calls, mean, bound, split);
	/*
	 * Each class's share at its own curves; 0, other and aligned_64 at the plain ones (taken
	 * at --align 0,0: mutually aligned; no class has a factor of its own).
	 */
	for (cls = 0; cls < CP_NR_DIST; cls++) {
		const struct est_costs *v = c->at[cls] ?: c;

		if (!(d[cls] > 0))
			continue;
		one = bucket_cost(v, p, lo, hi, calls, mean, bound, split);
		cost += d[cls] / sum * one;
		b += bound ? d[cls] / sum * *bound : 0;
	}
	if (bound)
		*bound = b;
	return cost;
}

/* A copy of @c with the curves of distance class @cls where @m has them; NULL if none. */
static struct est_costs *dist_variant(const struct est_costs *c, const struct costmodel *m,
				      const char *today_impl, int cls)
{
	const struct est_family_impls *fi = c->fi;
	const struct costmodel_curve *cv;
	struct est_costs v = *c, *out;
	bool any = false;
	int k;

	memset(v.at, 0, sizeof(v.at));
	v.dist = NULL;
	for (k = 0; k < COSTMODEL_NR_CACHES; k++) {
		if (!c->w[k])
			continue;
		cv = costmodel_find_dist(m, fi->loop, k, cls);
		if (cv && cv->nr_points && (any = true))
			v.loop[k] = cv;
		cv = costmodel_find_dist(m, fi->string, k, cls);
		if (cv && cv->nr_points && !c->string_via_dispatch[k] && (any = true))
			v.string[k] = cv;
		cv = costmodel_find_dist(m, fi->glibc ? fi->loop : today_impl, k, cls);
		if (cv && cv->nr_points && (any = true))
			v.today[k] = cv;
	}
	if (!any || !(out = malloc(sizeof(*out))))
		return NULL;
	*out = v;
	return out;
}

void est_costs_set_dist(struct est_costs *c, const struct costmodel *m, const char *today_impl,
			const double *dist)
{
	c->dist = dist;
	if (!c->at[CP_DIST_AHEAD])
		c->at[CP_DIST_AHEAD] = dist_variant(c, m, today_impl, CP_DIST_AHEAD);
	if (!c->at[CP_DIST_BEHIND])
		c->at[CP_DIST_BEHIND] = dist_variant(c, m, today_impl, CP_DIST_BEHIND);
}
