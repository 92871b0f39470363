// SPDX-License-Identifier: GPL-2.0
/* test_hist.c: the bucketing every estimate depends on: edges, exactness, limits */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "lib/hist.h"

static void exact_below_64(void **state)
{
	uint64_t v;

	for (v = 0; v < 64; v++) {
		assert_int_equal(cp_bucket_of(v), v);
		assert_int_equal(hist_bucket_lo((uint32_t)v), v);
		assert_int_equal(hist_bucket_hi((uint32_t)v), v + 1);
	}
}

static void every_k_times_2m_is_an_edge(void **state)
{
	uint64_t k;
	int m;

	for (m = 3; m < CP_MAX_LOG2 - 3; m++) {
		for (k = 8; k <= 15; k++) {
			uint64_t edge = k << m;
			uint32_t b = cp_bucket_of(edge);

			assert_int_equal(hist_bucket_lo(b), edge);
			if (edge > 64)
				assert_int_equal(cp_bucket_of(edge - 1), b - 1);
		}
	}
	/* The thresholds the seeds argue about are all edges. */
	assert_int_equal(hist_bucket_lo(cp_bucket_of(2048)), 2048);
	assert_int_equal(hist_bucket_lo(cp_bucket_of(1536)), 1536);
	assert_int_equal(hist_bucket_lo(cp_bucket_of(256)), 256);
	assert_int_equal(hist_bucket_lo(cp_bucket_of(320)), 320);
	assert_int_equal(hist_bucket_lo(cp_bucket_of(680)), 640);
}

static void buckets_tile_the_line(void **state)
{
	uint32_t b;

	assert_int_equal(CP_NBUCKETS, 64 + 34 * 8 + 1);
	for (b = 0; b + 1 < CP_NBUCKETS; b++)
		assert_true(hist_bucket_hi(b) == hist_bucket_lo(b + 1));
	for (b = 0; b < CP_NBUCKETS; b++) {
		assert_int_equal(cp_bucket_of(hist_bucket_lo(b)), b);
		if (b + 1 < CP_NBUCKETS)
			assert_int_equal(cp_bucket_of(hist_bucket_hi(b) - 1), b);
	}
	/* Eight sub-buckets per power of two from 64 on: 64..71 is the first. */
	assert_int_equal(hist_bucket_hi(cp_bucket_of(64)), 72);
	assert_int_equal(hist_bucket_lo(cp_bucket_of(4095)), 3840);
}

static void limits(void **state)
{
	uint64_t top = 1ULL << CP_MAX_LOG2;

	assert_int_equal(cp_bucket_of(0), 0);
	assert_int_equal(cp_bucket_of(top - 1), CP_OVERFLOW_BUCKET - 1);
	assert_int_equal(hist_bucket_hi(CP_OVERFLOW_BUCKET - 1), top);
	assert_int_equal(cp_bucket_of(top), CP_OVERFLOW_BUCKET);
	assert_int_equal(cp_bucket_of(UINT64_MAX), CP_OVERFLOW_BUCKET);
	assert_true(hist_bucket_hi(CP_OVERFLOW_BUCKET) == UINT64_MAX);
}

static void find_by_edges(void **state)
{
	assert_int_equal(hist_bucket_find(2048, 2304), cp_bucket_of(2048));
	assert_int_equal(hist_bucket_find(7, 8), 7);
	assert_int_equal(hist_bucket_find(2048, 2300), -1);
	assert_int_equal(hist_bucket_find(100, 101), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_below_64),
		cmocka_unit_test(every_k_times_2m_is_an_edge),
		cmocka_unit_test(buckets_tile_the_line),
		cmocka_unit_test(limits),
		cmocka_unit_test(find_by_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
