// SPDX-License-Identifier: GPL-2.0
/* test_estimate.c: the estimator on synthetic histograms and cost models, hand-computed totals */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "estimate.h"

/*
 * The model (warm):
 *   memcpy_orig   64 -> 10 ns, 1088 -> 112.4 ns  cost = 10 + 0.1 (n - 64), 10 below 64
 *   movsb         64 -> 30 ns, 1088 -> 81.2 ns   cost = 30 + 0.05 (n - 64), 30 below 64
 *   erms_threshold (T=2048): 64 -> 11 ns (d_lo = 1), 4096 -> 232.6 ns (d_hi = 1)
 * The histogram: 1000 calls of 16 B, 100 calls in [1024,1152) with mean 1100, 10 calls of 4096.
 *   orig:  16 -> 10,  1100 -> 113.6,  4096 -> 413.2
 *   movsb: 16 -> 30,  1100 -> 81.8,   4096 -> 231.6
 */
#define TODAY 25492.0	  /* 1000*10 + 100*113.6 + 10*413.2 */
#define T2048 24786.0	  /* 1000*11 + 100*114.6 + 10*232.6 */
#define T1024 21606.0	  /* 1000*11 + 100*82.8 + 10*232.6 (also T=32..512) */
#define T0 41606.0	  /* 1000*31 + 100*82.8 + 10*232.6 */
#define NEVER 26602.0	  /* 1000*11 + 100*114.6 + 10*414.2 */
#define ALWAYS 40496.0	  /* 1000*30 + 100*81.8 + 10*231.6 */
#define ORACLE 20496.0	  /* 1000*10 + 100*81.8 + 10*231.6 */

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
	s->n[16] = 1000;
	s->bytes[16] = 16000;
	s->n[cp_bucket_of(1024)] = 100;
	s->bytes[cp_bucket_of(1024)] = 110000;
	s->n[cp_bucket_of(4096)] = 10;
	s->bytes[cp_bucket_of(4096)] = 40960;
	if (time_weighted) {
		/* 1 sample per ns (1 GHz): a bucket's samples are its time today, in ns. */
		int b;

		s->time_weighted = true;
		in->sample_hz = 1e9;
		in->total_samples = 4 * TODAY;
		for (b = 0; b < CP_NBUCKETS; b++) {
			double k = b == 16 ? 10 : b == (int)cp_bucket_of(1024) ? 113.6 : 413.2;

			s->n[b] *= k;
			s->bytes[b] *= k;
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

static void check_exact_totals(struct est_family_result *r)
{
	NEAR(row(r, "today")->total_ns, TODAY);
	NEAR(row(r, "T=2048")->total_ns, T2048);
	NEAR(row(r, "T=1024")->total_ns, T1024);
	NEAR(row(r, "T=32")->total_ns, T1024);
	NEAR(row(r, "T=0")->total_ns, T0);
	NEAR(row(r, "never")->total_ns, NEVER);
	NEAR(row(r, "T=8192")->total_ns, NEVER); /* beyond every length: the same as never */
	NEAR(row(r, "always")->total_ns, ALWAYS);
	NEAR(row(r, "oracle")->total_ns, ORACLE);
	NEAR(row(r, "T=2048")->delta_pct, 100 * (T2048 - TODAY) / TODAY);
	NEAR(row(r, "T=2048")->ns_per_call, T2048 / 1110);
	NEAR(r->calls, 1110);
	assert_string_equal(r->rows[r->best].pol.name, "T=1024"); /* ties: the larger T */
	assert_int_equal(r->flat_lo, 32);
	assert_int_equal(r->flat_hi, 1024);
	assert_string_equal(r->today_impl, "memcpy_orig");
}

static void hand_computed(void **state)
{
	struct costmodel *m = model(true, 0);
	struct est_family_result r;
	struct est_options o;
	struct est_input in;
	size_t i;

	est_options_default(&o);
	input(&in, false);
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	check_exact_totals(&r);
	assert_true(r.dispatch_measured);
	/* Knots inside [1024,1152) lie on a straight line: costing at the mean is exact. */
	for (i = 0; i < r.nr_rows; i++) {
		NEAR(r.rows[i].bound_ns, 0);
		assert_true(r.rows[i].ci_low <= r.rows[i].delta_pct + 1e-9);
		assert_true(r.rows[i].ci_high >= r.rows[i].delta_pct - 1e-9);
	}
	NEAR(r.rows[0].ci_low, 0);
	assert_int_equal(r.nr_sites, 1);
	NEAR(r.sites[0].today_ns, TODAY);
	NEAR(r.sites[0].at_ns, T1024);
	est_family_result_free(&r);
	est_input_free(&in);
	costmodel_free(m);
}

static void time_weighted_becomes_calls(void **state)
{
	struct costmodel *m = model(true, 0);
	struct est_family_result r;
	struct est_options o;
	struct est_input in;

	est_options_default(&o);
	input(&in, true);
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	check_exact_totals(&r);
	NEAR(r.share, 0.25);
	est_family_result_free(&r);
	est_input_free(&in);
	costmodel_free(m);
}

static void mixed_cache(void **state)
{
	struct costmodel *m = model(false, 2);
	struct est_family_result r;
	struct est_options o;
	struct est_input in;

	est_options_default(&o);
	assert_int_equal(est_cache_parse("mixed=1,0,1", &o.cache), 0);
	input(&in, false);
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	/* Every cost is 1.5 times the warm one; no dispatch curve, so no dispatch cost. */
	NEAR(row(&r, "today")->total_ns, 1.5 * TODAY);
	NEAR(row(&r, "T=1024")->total_ns, 1.5 * (T1024 - 1110));
	NEAR(row(&r, "never")->total_ns, 1.5 * TODAY);
	assert_false(r.dispatch_measured);
	est_family_result_free(&r);
	est_input_free(&in);
	costmodel_free(m);
}

/*
 * The mix correction adds each implementation's penalty to its cost below the cutoff, leaves
 * the dispatch cost and everything from the cutoff alone, and a mix not applied (or no mix) is
 * the pure model. Penalties: memcpy_orig +20 ns, movsb +5 ns; only the 16 B calls are below 512.
 *   today   1000*(10 + 20) + 100*113.6 + 10*413.2   = 45492
 *   T=2048  1000*(10 + 1 + 20) + 100*114.6 + 10*232.6 = 44786
 *   T=1024  1000*31 + 100*82.8 + 10*232.6           = 41606
 *   T=0     1000*(30 + 1 + 5) + 100*82.8 + 10*232.6 = 46606
 *   always  1000*35 + 100*81.8 + 10*231.6           = 45496
 *   oracle  1000*30 + 100*81.8 + 10*231.6           = 40496 (the loop is cheaper at 16 B)
 * With a penalty of 12 ns for the dispatch replica, the loop behind it costs 10 + 1 + 12:
 *   T=2048  1000*23 + 100*114.6 + 10*232.6          = 36786
 *   never   1000*23 + 100*114.6 + 10*414.2          = 38602
 */
static void mix_correction_adds_penalties(void **state)
{
	struct costmodel *m = model(true, 0);
	struct est_mix mix = { .applied = true, .cutoff = 512, .calls = 20000, .nr_impls = 2,
			       .impls = { { .impl = "memcpy_orig", .penalty_ns = 20 },
					  { .impl = "movsb", .penalty_ns = 5 } } };
	struct est_family_result r;
	struct est_options o;
	struct est_input in;

	est_options_default(&o);
	assert_null(o.mix);
	o.mix = &mix;
	input(&in, false);
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	NEAR(row(&r, "today")->total_ns, 45492);
	NEAR(row(&r, "T=2048")->total_ns, 44786);
	NEAR(row(&r, "T=1024")->total_ns, 41606);
	NEAR(row(&r, "T=0")->total_ns, 46606);
	NEAR(row(&r, "always")->total_ns, 45496);
	NEAR(row(&r, "oracle")->total_ns, 40496);
	NEAR(r.dispatch_lo_ns, 1);
	NEAR(r.dispatch_hi_ns, 1);
	est_family_result_free(&r);

	mix.impls[2] = (struct est_mix_impl){ .impl = "erms_threshold", .penalty_ns = 12 };
	mix.nr_impls = 3;
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	NEAR(row(&r, "today")->total_ns, 45492);
	NEAR(row(&r, "T=2048")->total_ns, 36786);
	NEAR(row(&r, "never")->total_ns, 38602);
	NEAR(row(&r, "always")->total_ns, 45496);
	est_family_result_free(&r);

	NEAR(est_mix_penalty(&mix, "memcpy_orig"), 20);
	NEAR(est_mix_penalty(&mix, "rep_stosb"), 0);
	NEAR(est_mix_penalty(NULL, "movsb"), 0);
	mix.applied = false;
	assert_null(est_mix_find(&mix, "memcpy_orig"));
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	check_exact_totals(&r);
	est_family_result_free(&r);
	est_input_free(&in);
	costmodel_free(m);
}

static void missing_curve(void **state)
{
	struct costmodel *m = model(true, 0);
	struct est_family_result r;
	struct est_options o;
	struct est_input in;

	est_options_default(&o);
	input(&in, false);
	/* No src-flushed curves at all. */
	assert_int_equal(est_cache_parse("src-flushed", &o.cache), 0);
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), -ENOENT);
	est_family_result_free(&r);
	/* No clear_user curves. */
	est_options_default(&o);
	in.sites[0].family = EST_CLEAR_USER;
	assert_int_equal(est_family_evaluate(&in, EST_CLEAR_USER, m, "t", &o, &r), -ENOENT);
	est_family_result_free(&r);
	est_input_free(&in);
	costmodel_free(m);
}

static void split_threshold(void **state)
{
	struct costmodel *m = model(true, 0);
	struct est_family_result r;
	struct est_options o;
	struct est_input in;
	char why[64];

	est_options_default(&o);
	assert_int_equal(est_thresholds_parse("1088", &o, why, sizeof(why)), 0);
	input(&in, false);
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	/* T=1088 splits [1024,1152) in halves, costed at 1055.5 (loop) and 1119.5 (string). */
	NEAR(row(&r, "T=1088")->total_ns,
	     1000 * 11 + 50 * (10 + 0.1 * (1055.5 - 64) + 1) + 50 * (30 + 0.05 * (1119.5 - 64) + 1) +
		     10 * 232.6);
	assert_true(r.split_buckets);
	assert_true(row(&r, "T=1088")->bound_ns > 0);
	est_family_result_free(&r);
	est_input_free(&in);
	costmodel_free(m);
}

static void options_parse(void **state)
{
	struct est_options o;
	struct est_cache c;
	char why[64];

	est_options_default(&o);
	assert_int_equal(o.nr_thresholds, 12);
	assert_true(o.thresholds[11] == EST_NEVER);
	assert_int_equal(est_thresholds_parse("4K,never,32,32", &o, why, sizeof(why)), 0);
	assert_int_equal(o.nr_thresholds, 3);
	assert_int_equal(o.thresholds[0], 32);
	assert_int_equal(o.thresholds[1], 4096);
	assert_true(o.thresholds[2] == EST_NEVER);
	assert_int_equal(est_thresholds_parse("12x", &o, why, sizeof(why)), -EINVAL);
	assert_int_equal(est_thresholds_parse("-1", &o, why, sizeof(why)), -EINVAL);
	assert_int_equal(est_thresholds_parse("", &o, why, sizeof(why)), -EINVAL);
	assert_int_equal(est_cache_parse("mixed=2,1,1", &c), 0);
	NEAR(c.w[COSTMODEL_SRC_FLUSHED], 1);
	assert_int_equal(est_cache_parse("mixed=0,0,0", &c), -EINVAL);
	assert_int_equal(est_cache_parse("mixed=1,2", &c), -EINVAL);
	assert_int_equal(est_cache_parse("cold", &c), -EINVAL);
	assert_int_equal(est_family_parse("clear_user"), EST_CLEAR_USER);
	assert_int_equal(est_family_parse("strcpy"), -1);
}

static void hist_tables(void **state)
{
	char path[] = "/tmp/cp-test-hist.XXXXXX";
	struct est_input in;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	assert_non_null(f);
	fputs("size,count\n16,1000\n1100,100\n4096,10\n", f);
	fclose(f);
	assert_int_equal(est_input_from_hist(path, EST_MEMCPY, &in), 0);
	NEAR(in.sites[0].n[16], 1000);
	NEAR(in.sites[0].bytes[cp_bucket_of(1100)], 110000);
	assert_true(in.sites[0].counted);
	est_input_free(&in);

	f = fopen(path, "w");
	fputs("# size\tprobability\n0\t0.25\n64\t0.5\n65\t0.25\n", f);
	fclose(f);
	assert_int_equal(est_input_from_hist(path, EST_MEMSET, &in), 0);
	NEAR(in.sites[0].n[0], 0.25);
	NEAR(in.sites[0].n[64], 0.75);
	NEAR(in.sites[0].bytes[64], 0.5 * 64 + 0.25 * 65);
	assert_false(in.sites[0].counted); /* probabilities: no counting error */
	assert_int_equal(in.sites[0].family, EST_MEMSET);
	est_input_free(&in);

	f = fopen(path, "w");
	fputs("16,1000\nlots,2\n", f);
	fclose(f);
	assert_int_equal(est_input_from_hist(path, EST_MEMCPY, &in), -EINVAL);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hand_computed),
		cmocka_unit_test(time_weighted_becomes_calls),
		cmocka_unit_test(mixed_cache),
		cmocka_unit_test(mix_correction_adds_penalties),
		cmocka_unit_test(missing_curve),
		cmocka_unit_test(split_threshold),
		cmocka_unit_test(options_parse),
		cmocka_unit_test(hist_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
