/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_fixture.h: test helper: the synthetic cost model and histogram of the estimate tests */
#ifndef ESTIMATE_FIXTURE_H
#define ESTIMATE_FIXTURE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "costmodel/costmodel.h"
#include "estimate/estimate_input.h"
#include "estimate/estimate_model.h"
#include "estimate/estimate_options.h"
#include "estimate/estimate_result.h"

/*
 * The model (warm):
 *   memcpy_orig   64 -> 10 ns, 1088 -> 112.4 ns  cost = 10 + 0.1 (n - 64), 10 below 64
 *   movsb         64 -> 30 ns, 1088 -> 81.2 ns   cost = 30 + 0.05 (n - 64), 30 below 64
 *   erms_threshold (T=2048): 64 -> 11 ns (d_lo = 1), 4096 -> 232.6 ns (d_hi = 1)
 * The histogram: 1000 calls of 16 B, 100 calls in [1024,1152) with mean 1100, 10 calls of 4096.
 *   orig:  16 -> 10,  1100 -> 113.6,  4096 -> 413.2
 *   movsb: 16 -> 30,  1100 -> 81.8,   4096 -> 231.6
 */
#define TODAY 25492.0  /* 1000*10 + 100*113.6 + 10*413.2 */
#define T2048 24786.0  /* 1000*11 + 100*114.6 + 10*232.6 */
#define T1024 21606.0  /* 1000*11 + 100*82.8 + 10*232.6 (also T=32..512) */
#define T0 41606.0     /* 1000*31 + 100*82.8 + 10*232.6 */
#define NEVER 26602.0  /* 1000*11 + 100*114.6 + 10*414.2 */
#define ALWAYS 40496.0 /* 1000*30 + 100*81.8 + 10*231.6 */
#define ORACLE 20496.0 /* 1000*10 + 100*81.8 + 10*231.6 */

static void add_points(struct costmodel *m, const char *name, enum costmodel_cache c,
		       const uint64_t *sizes, const double *ns, size_t n, int64_t threshold)
{
	struct costmodel_curve *cv = costmodel_add_curve(m, name, "memcpy", c);
	size_t i;

	assert_non_null(cv);
	cv->threshold = threshold;
	for (i = 0; i < n; i++) {
		struct costmodel_point p = { .size = sizes[i], .ns = ns[i], .spread = -1 };

		assert_int_equal(costmodel_curve_add_point(cv, &p), 0);
	}
}

static struct costmodel *model(bool with_dispatch, double dst_factor)
{
	static const uint64_t xs[] = { 64, 1088 }, ex[] = { 64, 4096 };
	const double orig[] = { 10, 112.4 }, movsb[] = { 30, 81.2 }, erms[] = { 11, 232.6 };
	struct costmodel *m = costmodel_new();

	assert_non_null(m);
	m->measured = true;
	add_points(m, "memcpy_orig", COSTMODEL_WARM, xs, orig, 2, -1);
	add_points(m, "movsb", COSTMODEL_WARM, xs, movsb, 2, -1);
	if (with_dispatch)
		add_points(m, "erms_threshold", COSTMODEL_WARM, ex, erms, 2, 2048);
	if (dst_factor > 0) {
		const double o2[] = { 10 * dst_factor, 112.4 * dst_factor };
		const double m2[] = { 30 * dst_factor, 81.2 * dst_factor };

		add_points(m, "memcpy_orig", COSTMODEL_DST_FLUSHED, xs, o2, 2, -1);
		add_points(m, "movsb", COSTMODEL_DST_FLUSHED, xs, m2, 2, -1);
	}
	return m;
}

static char *flags[] = { "erms", "rep_good" };

static void input(struct est_input *in, bool time_weighted)
{
	struct est_site *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	memset(in, 0, sizeof(*in));
	in->name = strdup("synthetic");
	in->meta.kernel = "6.12.0-test";
	in->meta.cpu_flags = flags;
	in->meta.nr_cpu_flags = 2;
	in->duration_s = 1;
	s->label = strdup("test:copy+0x0 (uprobe)");
	s->counted = true;
	s->buckets = calloc(3, sizeof(*s->buckets));
	assert_non_null(s->buckets);
	s->nr_buckets = 3;
	s->buckets[0] = (struct est_bucket){ .b = 16, .n = 1000, .bytes = 16000 };
	s->buckets[1] = (struct est_bucket){ .b = cp_bucket_of(1024), .n = 100, .bytes = 110000 };
	s->buckets[2] = (struct est_bucket){ .b = cp_bucket_of(4096), .n = 10, .bytes = 40960 };
	if (time_weighted) {
		/* 1 sample per ns (1 GHz): a bucket's samples are its time today, in ns. */
		static const double k[3] = { 10, 113.6, 413.2 };
		int b;

		s->time_weighted = true;
		in->sample_hz = 1e9;
		in->total_samples = 4 * TODAY;
		for (b = 0; b < 3; b++) {
			s->buckets[b].n *= k[b];
			s->buckets[b].bytes *= k[b];
		}
	}
	in->sites = s;
	in->nr_sites = 1;
}

static const struct est_row *row(const struct est_family_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_rows; i++)
		if (!strcmp(r->rows[i].pol.name, name))
			return &r->rows[i];
	fail_msg("no row %s", name);
	return NULL;
}

#define NEAR(a, b) near((double)(a), (double)(b), #a)

static void near(double a, double b, const char *what)
{
	if (fabs(a - b) > 1e-6 * fmax(1, fabs(b)))
		fail_msg("%s = %.9g, expected %.9g", what, a, b);
}

#endif
