// SPDX-License-Identifier: GPL-2.0
/* costmodel.c: the cost model in memory: curves, points, piecewise-linear cost lookups */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "costmodel.h"
#include "lib/hist.h"

static const char *const cache_names[COSTMODEL_NR_CACHES] = {
	[COSTMODEL_WARM] = "warm",
	[COSTMODEL_SRC_FLUSHED] = "src-flushed",
	[COSTMODEL_DST_FLUSHED] = "dst-flushed",
};

const char *costmodel_cache_name(enum costmodel_cache cache)
{
	return cache < COSTMODEL_NR_CACHES ? cache_names[cache] : "?";
}

int costmodel_cache_parse(const char *s)
{
	int i;

	for (i = 0; i < COSTMODEL_NR_CACHES; i++)
		if (s && !strcmp(s, cache_names[i]))
			return i;
	return -1;
}

struct costmodel *costmodel_new(void)
{
	struct costmodel *m = calloc(1, sizeof(*m));

	if (m)
		m->cpu = -1;
	return m;
}

void costmodel_free(struct costmodel *m)
{
	size_t i;

	if (!m)
		return;
	host_meta_free(&m->meta);
	free(m->note);
	free(m->timer);
	for (i = 0; i < m->nr_paired; i++)
		mixmeas_free(&m->paired[i]);
	free(m->paired);
	for (i = 0; i < m->nr_curves; i++) {
		free(m->curves[i].name);
		free(m->curves[i].family);
		free(m->curves[i].points);
	}
	free(m->curves);
	free(m);
}

struct costmodel_curve *costmodel_add_curve(struct costmodel *m, const char *name,
					    const char *family, enum costmodel_cache cache)
{
	struct costmodel_curve *c = realloc(m->curves, (m->nr_curves + 1) * sizeof(*c));

	if (!c)
		return NULL;
	m->curves = c;
	c = &m->curves[m->nr_curves];
	memset(c, 0, sizeof(*c));
	c->name = strdup(name);
	c->family = strdup(family ? family : "");
	c->cache = cache;
	c->threshold = -1;
	if (!c->name || !c->family) {
		free(c->name);
		free(c->family);
		return NULL;
	}
	m->nr_curves++;
	return c;
}

int costmodel_curve_add_point(struct costmodel_curve *c, const struct costmodel_point *p)
{
	struct costmodel_point *pts;
	size_t i = c->nr_points;

	/* Points usually arrive in order: look from the end. */
	while (i && c->points[i - 1].size > p->size)
		i--;
	if (i && c->points[i - 1].size == p->size)
		return -EEXIST;
	pts = realloc(c->points, (c->nr_points + 1) * sizeof(*pts));
	if (!pts)
		return -ENOMEM;
	c->points = pts;
	memmove(&pts[i + 1], &pts[i], (c->nr_points - i) * sizeof(*pts));
	pts[i] = *p;
	c->nr_points++;
	return 0;
}

int costmodel_curve_dist(const struct costmodel_curve *c)
{
	return (int)cp_dist_class(c->align_dst, c->align_src);
}

static bool in_window(const struct costmodel_curve *c)
{
	int d = costmodel_curve_dist(c);

	return d == CP_DIST_AHEAD || d == CP_DIST_BEHIND;
}

const struct costmodel_curve *costmodel_find(const struct costmodel *m, const char *name,
					     enum costmodel_cache cache)
{
	const struct costmodel_curve *any = NULL;
	size_t i;

	for (i = 0; i < m->nr_curves; i++)
		if (m->curves[i].cache == cache && !strcmp(m->curves[i].name, name)) {
			if (!in_window(&m->curves[i]))
				return &m->curves[i];
			any = any ?: &m->curves[i];
		}
	return any;
}

const struct costmodel_curve *costmodel_find_dist(const struct costmodel *m, const char *name,
						  enum costmodel_cache cache, int cls)
{
	size_t i;

	for (i = 0; i < m->nr_curves; i++)
		if (m->curves[i].cache == cache && !strcmp(m->curves[i].name, name) &&
		    costmodel_curve_dist(&m->curves[i]) == cls)
			return &m->curves[i];
	return NULL;
}

const struct costmodel_point *costmodel_point_at(const struct costmodel_curve *c, uint64_t size)
{
	size_t lo = 0, hi = c ? c->nr_points : 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->points[mid].size == size)
			return &c->points[mid];
		if (c->points[mid].size < size)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * The linear piece in force at @size: cost(x) = y0 + slope * (x - x0). Index of the segment's
 * left point: below the first point the piece is flat; past the last it continues the last
 * segment, with a negative slope (noise) clamped to 0 so that the cost never falls with size.
 */
static void piece_at(const struct costmodel_curve *c, double size, double *x0, double *y0,
		     double *slope)
{
	const struct costmodel_point *p = c->points;
	size_t n = c->nr_points, lo = 0, hi;

	if (n == 1 || size <= (double)p[0].size) {
		*x0 = (double)p[0].size;
		*y0 = p[0].ns;
		*slope = 0;
		return;
	}
	if (size >= (double)p[n - 1].size) {
		lo = n - 2;
	} else {
		/* Largest i with p[i].size <= size. */
		hi = n - 1;
		while (hi - lo > 1) {
			size_t mid = (lo + hi) / 2;

			if ((double)p[mid].size <= size)
				lo = mid;
			else
				hi = mid;
		}
	}
	*x0 = (double)p[lo].size;
	*y0 = p[lo].ns;
	*slope = (p[lo + 1].ns - p[lo].ns) / (double)(p[lo + 1].size - p[lo].size);
	if (lo == n - 2 && size > (double)p[n - 1].size) {
		*x0 = (double)p[n - 1].size;
		*y0 = p[n - 1].ns;
		if (*slope < 0)
			*slope = 0;
	}
}

double costmodel_cost_ns(const struct costmodel_curve *c, double size)
{
	double x0, y0, slope;

	if (!c || !c->nr_points)
		return NAN;
	piece_at(c, size, &x0, &y0, &slope);
	return y0 + slope * (size - x0);
}

double costmodel_avg_ns(const struct costmodel_curve *c, uint64_t lo, uint64_t hi)
{
	double sum = 0;
	uint64_t a = lo;
	size_t i;

	if (!c || !c->nr_points || lo >= hi)
		return NAN;
	/*
	 * Cut [lo, hi) at every measured size: within a cut the cost is one linear function of
	 * the length, so the sum over its integers is their count times the cost at their mean.
	 */
	for (i = 0; i <= c->nr_points && a < hi; i++) {
		uint64_t b = i < c->nr_points ? c->points[i].size : hi;

		if (b > hi)
			b = hi;
		if (b <= a)
			continue;
		sum += (double)(b - a) * costmodel_cost_ns(c, ((double)a + (double)(b - 1)) / 2);
		a = b;
	}
	return sum / (double)(hi - lo);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int costmodel_crossover(const struct costmodel_curve *a, const struct costmodel_curve *b,
			double *size)
{
	size_t n = 0, m = 0, i;
	uint64_t *xs, first, last;
	double *d, x;

	if (!a || !b || !a->nr_points || !b->nr_points)
		return -ENOENT;
	xs = malloc((a->nr_points + b->nr_points) * sizeof(*xs));
	d = malloc((a->nr_points + b->nr_points) * sizeof(*d));
	if (!xs || !d) {
		free(xs);
		free(d);
		return -ENOMEM;
	}
	for (i = 0; i < a->nr_points; i++)
		xs[n++] = a->points[i].size;
	for (i = 0; i < b->nr_points; i++)
		xs[n++] = b->points[i].size;
	qsort(xs, n, sizeof(*xs), cmp_u64);
	/* Only where both were measured: extrapolation says nothing about a crossover. */
	first = a->points[0].size > b->points[0].size ? a->points[0].size : b->points[0].size;
	last = a->points[a->nr_points - 1].size < b->points[b->nr_points - 1].size
		       ? a->points[a->nr_points - 1].size
		       : b->points[b->nr_points - 1].size;
	for (i = 0; i < n; i++) {
		if (xs[i] < first || xs[i] > last || (m && xs[i] == xs[m - 1]))
			continue;
		xs[m] = xs[i];
		d[m++] = costmodel_cost_ns(b, (double)xs[i]) - costmodel_cost_ns(a, (double)xs[i]);
	}
	/* From the largest size down to the last place where b was still dearer. */
	for (i = m; i > 0 && d[i - 1] <= 0; i--)
		;
	if (i == m) {
		free(xs);
		free(d);
		return -ENOENT;
	}
	if (i == 0) {
		x = (double)xs[0];
	} else {
		/* The difference is linear between two cut points: find its zero. */
		x = (double)xs[i - 1] + d[i - 1] * (double)(xs[i] - xs[i - 1]) / (d[i - 1] - d[i]);
	}
	*size = ceil(x);
	free(xs);
	free(d);
	return 0;
}
