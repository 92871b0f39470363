// SPDX-License-Identifier: GPL-2.0
/* test_num_format.c: thousands separators at every group boundary and at the limits */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include "lib/num_format.h"

static void groups(void **state)
{
	char b[NUM_FORMAT_LEN];

	assert_string_equal(num_format(0, b), "0");
	assert_string_equal(num_format(7, b), "7");
	assert_string_equal(num_format(999, b), "999");
	assert_string_equal(num_format(1000, b), "1,000");
	assert_string_equal(num_format(12208, b), "12,208");
	assert_string_equal(num_format(100000, b), "100,000");
	assert_string_equal(num_format(999999, b), "999,999");
	assert_string_equal(num_format(1000000, b), "1,000,000");
	assert_string_equal(num_format(50000000, b), "50,000,000");
}

static void limits(void **state)
{
	char b[NUM_FORMAT_LEN];

	assert_string_equal(num_format(UINT64_MAX, b), "18,446,744,073,709,551,615");
	assert_int_equal(sizeof("18,446,744,073,709,551,615"), NUM_FORMAT_LEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(groups),
		cmocka_unit_test(limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
