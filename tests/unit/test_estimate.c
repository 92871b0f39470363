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
#include "estimate_fixture.h"

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
	assert_int_equal(est_family_evaluate(&in, CF_MEMCPY, m, "t", &o, &r), 0);
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
	assert_int_equal(est_family_evaluate(&in, CF_MEMCPY, m, "t", &o, &r), 0);
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
	assert_int_equal(est_family_evaluate(&in, CF_MEMCPY, m, "t", &o, &r), 0);
	/* Every cost is 1.5 times the warm one; no dispatch curve, so no dispatch cost. */
	NEAR(row(&r, "today")->total_ns, 1.5 * TODAY);
	NEAR(row(&r, "T=1024")->total_ns, 1.5 * (T1024 - 1110));
	NEAR(row(&r, "never")->total_ns, 1.5 * TODAY);
	assert_false(r.dispatch_measured);
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
	assert_int_equal(est_family_evaluate(&in, CF_MEMCPY, m, "t", &o, &r), -ENOENT);
	est_family_result_free(&r);
	/* No clear_user curves. */
	est_options_default(&o);
	in.sites[0].family = CF_CLEAR_USER;
	assert_int_equal(est_family_evaluate(&in, CF_CLEAR_USER, m, "t", &o, &r), -ENOENT);
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
	assert_int_equal(est_family_evaluate(&in, CF_MEMCPY, m, "t", &o, &r), 0);
	/* T=1088 splits [1024,1152) in halves, costed at 1055.5 (loop) and 1119.5 (string). */
	NEAR(row(&r, "T=1088")->total_ns, 1000 * 11 + 50 * (10 + 0.1 * (1055.5 - 64) + 1) +
						  50 * (30 + 0.05 * (1119.5 - 64) + 1) +
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
	assert_true(o.thresholds[11] == POLICY_NEVER);
	assert_int_equal(est_thresholds_parse("4K,never,32,32", &o, why, sizeof(why)), 0);
	assert_int_equal(o.nr_thresholds, 3);
	assert_int_equal(o.thresholds[0], 32);
	assert_int_equal(o.thresholds[1], 4096);
	assert_true(o.thresholds[2] == POLICY_NEVER);
	assert_int_equal(est_thresholds_parse("12x", &o, why, sizeof(why)), -EINVAL);
	assert_int_equal(est_thresholds_parse("-1", &o, why, sizeof(why)), -EINVAL);
	assert_int_equal(est_thresholds_parse("", &o, why, sizeof(why)), -EINVAL);
	assert_int_equal(est_cache_parse("mixed=2,1,1", &c), 0);
	NEAR(c.w[COSTMODEL_SRC_FLUSHED], 1);
	assert_int_equal(est_cache_parse("mixed=0,0,0", &c), -EINVAL);
	assert_int_equal(est_cache_parse("mixed=1,2", &c), -EINVAL);
	assert_int_equal(est_cache_parse("cold", &c), -EINVAL);
	assert_int_equal(est_family_parse("clear_user"), CF_CLEAR_USER);
	assert_int_equal(est_family_parse("strcpy"), -1);
}

/* Site @s's bucket @b ({0} when it has none: the site keeps non-empty buckets only). */
static struct est_bucket bucket(const struct est_site *s, uint32_t b)
{
	uint32_t k;

	for (k = 0; k < s->nr_buckets; k++)
		if (s->buckets[k].b == b)
			return s->buckets[k];
	return (struct est_bucket){ .b = b };
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
	assert_int_equal(est_input_from_hist(path, CF_MEMCPY, &in), 0);
	NEAR(bucket(&in.sites[0], 16).n, 1000);
	assert_int_equal(in.sites[0].nr_buckets, 3);
	NEAR(bucket(&in.sites[0], cp_bucket_of(1100)).bytes, 110000);
	assert_true(in.sites[0].counted);
	est_input_free(&in);

	f = fopen(path, "w");
	fputs("# size\tprobability\n0\t0.25\n64\t0.5\n65\t0.25\n", f);
	fclose(f);
	assert_int_equal(est_input_from_hist(path, CF_MEMSET, &in), 0);
	NEAR(bucket(&in.sites[0], 0).n, 0.25);
	NEAR(bucket(&in.sites[0], 64).n, 0.75);
	assert_int_equal(in.sites[0].nr_buckets, 2);
	NEAR(bucket(&in.sites[0], 64).bytes, 0.5 * 64 + 0.25 * 65);
	assert_false(in.sites[0].counted); /* probabilities: no counting error */
	assert_int_equal(in.sites[0].family, CF_MEMSET);
	est_input_free(&in);

	f = fopen(path, "w");
	fputs("16,1000\nlots,2\n", f);
	fclose(f);
	assert_int_equal(est_input_from_hist(path, CF_MEMCPY, &in), -EINVAL);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hand_computed),   cmocka_unit_test(time_weighted_becomes_calls),
		cmocka_unit_test(mixed_cache),	   cmocka_unit_test(missing_curve),
		cmocka_unit_test(split_threshold), cmocka_unit_test(options_parse),
		cmocka_unit_test(hist_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
