// SPDX-License-Identifier: GPL-2.0
/* test_dist_class.c: the pointer distance classes: their edges, old rows, and mix digests */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "estimate/estimate_digest.h"
#include "estimate/estimate_options.h"
#include "profile/profile_dist.h"

/* (dst - src) mod 4096 at each class's edges, with dst above and below src. */
static void class_edges(void **state)
{
	static const struct {
		uint64_t d;
		uint32_t cls;
	} at[] = {
		{ 0, CP_DIST_ZERO },	     { 1, CP_DIST_AHEAD },
		{ 63, CP_DIST_AHEAD },	     { 64, CP_DIST_ALIGNED_64 },
		{ 65, CP_DIST_OTHER },	     { 100, CP_DIST_OTHER },
		{ 128, CP_DIST_ALIGNED_64 }, { 4032, CP_DIST_ALIGNED_64 },
		{ 4033, CP_DIST_BEHIND },    { 4095, CP_DIST_BEHIND },
		{ 4096, CP_DIST_ZERO },	     { 4096 + 64, CP_DIST_ALIGNED_64 },
	};
	const uint64_t src = 0x7f0000001230ULL;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		assert_int_equal(cp_dist_class(src + at[i].d, src), at[i].cls);
		/* the same distance mod 4096 reached from above: dst below src */
		assert_int_equal(cp_dist_class(src + at[i].d - 8192, src), at[i].cls);
	}
}

/* A row written before aligned_64 reads with 0 there; one with the key reads it; merge adds. */
static void rows_old_and_new(void **state)
{
	json_object *old = json_tokener_parse("[{\"lo\":1024,\"hi\":1152,\"zero\":1,"
					      "\"ahead_1_63\":2,\"behind_1_63\":3,\"other\":4}]");
	json_object *cur = json_tokener_parse("[{\"lo\":1024,\"hi\":1152,\"zero\":1,"
					      "\"ahead_1_63\":2,\"behind_1_63\":3,\"other\":4,"
					      "\"aligned_64\":5}]");
	json_object *bad = json_tokener_parse("[{\"lo\":1024,\"hi\":1152,\"zero\":1,"
					      "\"ahead_1_63\":2,\"behind_1_63\":3,\"other\":4,"
					      "\"aligned_64\":-5}]");
	struct site_dist d = { 0 };
	json_object *back;

	(void)state;
	assert_int_equal(site_dist_from_json(old, &d, "old", 0), 0);
	assert_int_equal(d.nr, 1);
	assert_int_equal(d.v[0].c[CP_DIST_OTHER], 4);
	assert_int_equal(d.v[0].c[CP_DIST_ALIGNED_64], 0);
	assert_int_equal(site_dist_from_json(cur, &d, "cur", 0), 0); /* added to the same row */
	assert_int_equal(d.nr, 1);
	assert_int_equal(d.v[0].c[CP_DIST_OTHER], 8);
	assert_int_equal(d.v[0].c[CP_DIST_ALIGNED_64], 5);
	back = site_dist_to_json(&d);
	assert_string_equal(json_object_to_json_string_ext(back, JSON_C_TO_STRING_PLAIN),
			    "[{\"lo\":1024,\"hi\":1152,\"zero\":2,\"ahead_1_63\":4,"
			    "\"behind_1_63\":6,\"other\":8,\"aligned_64\":5}]");
	assert_int_equal(site_dist_from_json(bad, &d, "bad", 0), -EINVAL);
	json_object_put(back);
	json_object_put(old);
	json_object_put(cur);
	json_object_put(bad);
	site_dist_free(&d);
}

static void digest_of(const struct dist_count *row, char *out, size_t len)
{
	struct site_dist dist = { (struct dist_count *)row, 1, true };
	struct est_bucket bk = { row->bucket, 100, 100 * 1100 };
	struct est_site s = { .family = CF_MEMCPY, .dist = &dist, .buckets = &bk, .nr_buckets = 1 };
	struct est_input in = { .sites = &s, .nr_sites = 1 };
	struct est_options o = { .cache = { .label = "warm" } };

	est_mix_digest(&in, CF_MEMCPY, "glibc", UINT64_MAX, &o, out, len);
}

/*
 * A mix with aligned_64 = 0 in every row keeps the digest main gave it before the class came
 * (the golden value: main at 48d6d3e, est_mix_digest on this very input), so the stored
 * measurements of existing cost models still match; a nonzero aligned_64 changes it.
 */
static void digest_kept_without_aligned(void **state)
{
	struct dist_count row = { .bucket = cp_bucket_of(1024) };
	char before[32], with[32];

	(void)state;
	row.c[CP_DIST_ZERO] = 7;
	row.c[CP_DIST_AHEAD] = 5;
	row.c[CP_DIST_BEHIND] = 3;
	row.c[CP_DIST_OTHER] = 85;
	digest_of(&row, before, sizeof(before));
	assert_string_equal(before, "7228995c9de3bab3");
	row.c[CP_DIST_OTHER] = 80;
	row.c[CP_DIST_ALIGNED_64] = 5;
	digest_of(&row, with, sizeof(with));
	assert_string_not_equal(with, before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(class_edges),
		cmocka_unit_test(rows_old_and_new),
		cmocka_unit_test(digest_kept_without_aligned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
