// SPDX-License-Identifier: GPL-2.0
/* test_verify.c: verify's statistics (the paired change and its interval, the agreement rule) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include "measure/verify_run.h"

/* Every pair 10% slower with B: the change is +10% and the interval has no width. */
static void test_constant_ratio(void **state)
{
	double a[12], b[12], pct, lo, hi;
	size_t i;

	(void)state;
	for (i = 0; i < 12; i++) {
		a[i] = 0.5 + 0.01 * (double)i; /* the runs differ; their ratio does not */
		b[i] = a[i] * 1.1;
	}
	assert_int_equal(verify_change(a, b, 12, &pct, &lo, &hi), 0);
	assert_true(fabs(pct - 10) < 1e-9);
	assert_true(fabs(lo - 10) < 1e-9 && fabs(hi - 10) < 1e-9);
}

/* The median of the per-pair ratios, not of the times: one wild pair does not move it. */
static void test_median_of_ratios(void **state)
{
	double a[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	double b[9] = { 0.98, 0.99, 1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 9.0 };
	double pct, lo, hi, pct2, lo2, hi2;

	(void)state;
	assert_int_equal(verify_change(a, b, 9, &pct, &lo, &hi), 0);
	assert_true(fabs(pct - 2) < 1e-9); /* the 5th of 9 ratios: 1.02 */
	assert_true(lo <= pct && pct <= hi);
	assert_true(lo >= -2 - 1e-9 && hi <= 800 + 1e-9); /* within the ratios' range */
	/* The same runs give the same interval (one seed). */
	assert_int_equal(verify_change(a, b, 9, &pct2, &lo2, &hi2), 0);
	assert_true(pct2 == pct && lo2 == lo && hi2 == hi);
}

/* A time of 0 (below wait4's microsecond) counts as 1 us: no division by zero. */
static void test_zero_time(void **state)
{
	double a[8] = { 0 }, b[8] = { 0 }, pct, lo, hi;

	(void)state;
	assert_int_equal(verify_change(a, b, 8, &pct, &lo, &hi), 0);
	assert_true(pct == 0 && lo == 0 && hi == 0);
}

/* Agree: the two intervals overlap (a point: inside the other), touching counts. */
static void test_agree(void **state)
{
	(void)state;
	assert_true(verify_agree(1, 3, 2, 5));
	assert_true(verify_agree(3, 3, 2, 5));
	assert_true(verify_agree(-1, 2, 2, 5));
	assert_false(verify_agree(-1, 1.99, 2, 5));
	assert_false(verify_agree(6, 6, 2, 5));
	assert_true(verify_agree(-10, 10, 2, 5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constant_ratio),
		cmocka_unit_test(test_median_of_ratios),
		cmocka_unit_test(test_zero_time),
		cmocka_unit_test(test_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
