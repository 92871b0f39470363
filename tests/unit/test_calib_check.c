// SPDX-License-Identifier: GPL-2.0
/* test_calib_check.c: calibrate's physical checks refuse the points that cannot be */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include "calib/calib_check.h"

static void test_floor(void **state)
{
	(void)state;
	/* A call costs at least 0.2 ns; 4096 B at most 256 B/ns is 16 ns. */
	assert_true(calib_floor_ns(1) == CALIB_MIN_CALL_NS);
	assert_true(calib_floor_ns(4096) == 16.0);
	assert_string_equal(calib_point_impossible(4096, 15.9, NAN, NAN), "below the floor");
	assert_null(calib_point_impossible(4096, 16.0, NAN, NAN));
	assert_string_equal(calib_point_impossible(8, 0.0, 3, 4), "below the floor");
	/* A NaN median (no run) is never a plausible point. */
	assert_string_equal(calib_point_impossible(8, NAN, 3, 4), "not a number");
}

static void test_neighbours(void **state)
{
	(void)state;
	/* 3x off both neighbours, in the same direction, is impossible; at the ends it is not. */
	assert_string_equal(calib_point_impossible(256, 30.1, 9, 10), "far above both neighbours");
	assert_null(calib_point_impossible(256, 29.9, 9, 10));
	assert_string_equal(calib_point_impossible(256, 2.9, 9, 10), "far below both neighbours");
	assert_null(calib_point_impossible(256, 3.1, 9, 10));
	/* A step up (below one neighbour, above the other) is a threshold, not noise. */
	assert_null(calib_point_impossible(256, 30, 9, 100));
	assert_null(calib_point_impossible(256, 300, NAN, 10));
	assert_null(calib_point_impossible(256, 300, 10, NAN));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_neighbours),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
