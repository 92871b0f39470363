// SPDX-License-Identifier: GPL-2.0
/* test_calib_check.c: calibrate refuses only the points this machine's measured limits rule out */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include "measure/calib_check.h"

/* What calibrate measured on the Sapphire-Rapids-class Xeon VM (calibrate --quick, 2026-12-07). */
static const struct costmodel_limits xeon = {
	.store_bytes_per_ns = 253.64,
	.store_loop = "avx512",
	.copy_bytes_per_ns = 253.3,
	.copy_loop = "avx512",
	.call_ns = 1.0816,
	.margin = COSTMODEL_LIMITS_MARGIN,
};

static bool refused(const struct costmodel_limits *l, uint64_t size, double ns, bool copies)
{
	char why[256];

	return costmodel_limits_check(l, size, ns, copies, why, sizeof(why)) != 0;
}

static void test_floor_is_measured(void **state)
{
	(void)state;
	/* size / (rate * 1.25), or half the empty call, whichever is more. */
	assert_true(fabs(costmodel_limits_floor_ns(&xeon, 4096, false) - 4096 / (253.64 * 1.25)) <
		    1e-12);
	assert_true(fabs(costmodel_limits_floor_ns(&xeon, 8, true) - 0.5 * 1.0816) < 1e-12);
	/* Zen 3: clear_user_original warm 8 B at 1.87 ns, every empty call at 2.76 ns (a CI run). */
	{
		struct costmodel_limits zen3 = xeon;

		zen3.call_ns = 2.756;
		assert_false(refused(&zen3, 8, 1.868, false));
	}
	/* The fastest point of the same run: glibc_memset_avx512_vec warm 4096 B at 16.11 ns. */
	assert_false(refused(&xeon, 4096, 16.11, false));
	/* glibc_memmove_evex warm 32 B at 1.07 ns, against an empty call of 1.08 ns. */
	assert_false(refused(&xeon, 32, 1.07, true));
	/* Twice this machine's best store rate is not a measurement. */
	assert_true(refused(&xeon, 4096, 8.0, false));
	assert_true(refused(&xeon, 1, 0.5, true));
	/* A time no call takes, on any machine. */
	assert_true(refused(&xeon, 8, 0.0, true));
	assert_true(refused(&xeon, 8, -1.0, true));
	assert_true(refused(&xeon, 8, NAN, true));
}

/*
 * A machine twice as fast as any seen: its L1 stores measured at 520 B/ns, its copies at 400.
 * A 2 KiB clear at 4 ns (512 B/ns) is real there; 3 ns (683 B/ns) is beyond 520 by more than
 * the margin, and the refusal names the measured ceiling, its loop and the point.
 */
static void test_faster_machine(void **state)
{
	struct costmodel_limits fast = {
		.store_bytes_per_ns = 520,
		.store_loop = "avx512",
		.copy_bytes_per_ns = 400,
		.copy_loop = "rep_movsb",
		.call_ns = 0.4,
		.margin = COSTMODEL_LIMITS_MARGIN,
	};
	char why[256];

	(void)state;
	assert_false(refused(&fast, 2048, 4.0, false));
	assert_int_equal(costmodel_limits_check(&fast, 2048, 3.0, false, why, sizeof(why)),
			 -ERANGE);
	assert_string_equal(why, "2048 B at 3.000 ns (683 B/ns) is beyond the measured store "
				 "ceiling of 520.0 B/ns (avx512 loop) by more than 25%");
	/* Within the margin: 2048 B at 3.2 ns is 640 B/ns, under 520 * 1.25 = 650. */
	assert_false(refused(&fast, 2048, 3.2, false));
	/* A copy is held to the copy ceiling: 2048 B at 3.2 ns beats 400 * 1.25 = 500 B/ns. */
	assert_true(costmodel_limits_check(&fast, 2048, 3.2, true, why, sizeof(why)) != 0);
	assert_non_null(strstr(why, "copy ceiling of 400.0 B/ns (rep_movsb loop)"));
	/* A call below half the empty call's 0.4 ns; 0.29 ns is not. */
	assert_true(costmodel_limits_check(&fast, 1, 0.19, true, why, sizeof(why)) != 0);
	assert_string_equal(why, "1 B at 0.190 ns is below 50% of the measured cost of an empty "
				 "call (0.400 ns)");
	assert_false(refused(&fast, 1, 0.29, true));
	assert_false(refused(&fast, 1, 0.31, true));
}

/*
 * Zen 5 (issue 33): libc_clear warm 2048 B at 7.8 ns, 262 B/ns, refused by the fixed 256 B/ns
 * that was here. AVX-512 stores were seen at 257-262 B/ns on that machine: even a store loop
 * measured at only the lowest of them keeps the point, within the margin.
 */
static void test_zen5_clear(void **state)
{
	struct costmodel_limits zen5 = xeon;

	(void)state;
	zen5.store_bytes_per_ns = 257;
	assert_false(refused(&zen5, 2048, 7.8, false));
}

/* Limits not measured (a model from before): no floor but that a call takes some time. */
static void test_unknown_limits(void **state)
{
	struct costmodel_limits none = { 0 };
	char buf[64];

	(void)state;
	assert_false(costmodel_limits_known(&none));
	assert_true(costmodel_limits_floor_ns(&none, 4096, false) == 0);
	assert_false(refused(&none, 1 << 20, 0.001, true));
	assert_true(refused(&none, 8, 0, true));
	assert_string_equal(costmodel_limits_describe(&none, buf, sizeof(buf)), "not measured");
}

static void test_neighbours(void **state)
{
	(void)state;
	/* 3x off both neighbours, in the same direction, is suspect; at the ends it is not. */
	assert_string_equal(calib_point_off_neighbours(30.1, 9, 10), "far above both neighbours");
	assert_null(calib_point_off_neighbours(29.9, 9, 10));
	assert_string_equal(calib_point_off_neighbours(2.9, 9, 10), "far below both neighbours");
	assert_null(calib_point_off_neighbours(3.1, 9, 10));
	/* A step up (below one neighbour, above the other) is a threshold, not noise. */
	assert_null(calib_point_off_neighbours(30, 9, 100));
	assert_null(calib_point_off_neighbours(300, NAN, 10));
	assert_null(calib_point_off_neighbours(300, 10, NAN));
}

/*
 * Zen 5 (issue 33): libc_memcpy dst-flushed 256 B at 5.802 ns, far below both neighbours, and
 * the same when measured again: real, kept. A measurement that moves by more than both
 * intervals (or 2% of each, whichever is wider) does not reproduce.
 */
static void test_reproduces(void **state)
{
	(void)state;
	assert_true(calib_point_reproduces(5.802, 0.05, 5.85, 0.06, 0.02));
	/* Intervals narrower than 2% do not make a drift of a percent a disagreement. */
	assert_true(calib_point_reproduces(5.802, 0.001, 5.86, 0.001, 0.02));
	assert_false(calib_point_reproduces(5.802, 0.001, 6.2, 0.001, 0.02));
	assert_false(calib_point_reproduces(5.802, 0.05, 17.4, 0.3, 0.02));
	/* A wide interval covers a wide move: that is what the point's own noise says. */
	assert_true(calib_point_reproduces(5.8, 1.0, 7.0, 0.5, 0.02));
	assert_false(calib_point_reproduces(0, 0.1, 0.05, 0.1, 0.02));
	/* One run has no interval: 2% of each is all the room it gets. */
	assert_true(calib_point_reproduces(5.80, INFINITY, 5.9, 0.01, 0.02));
	assert_false(calib_point_reproduces(5.80, INFINITY, 6.2, 0.01, 0.02));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_floor_is_measured), cmocka_unit_test(test_faster_machine),
		cmocka_unit_test(test_zen5_clear),	  cmocka_unit_test(test_unknown_limits),
		cmocka_unit_test(test_neighbours),	  cmocka_unit_test(test_reproduces),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
