// SPDX-License-Identifier: GPL-2.0
/* test_profile_cgroup.c: a site's calls by cgroup: the top 8 kept, the rest other, JSON both ways */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include "lib/hist.h"
#include "profile/profile_cgroup.h"

static void top_eight_and_other(void **state)
{
	struct site_cgroups c = { 0 };
	char path[32];
	uint64_t i, other = 0;

	(void)state;
	/* Ten cgroups, 1 .. 10 calls, added smallest first: 10 .. 3 kept, 2 + 1 in other. */
	for (i = 1; i <= 10; i++) {
		snprintf(path, sizeof(path), "/cg%llu", (unsigned long long)i);
		assert_int_equal(site_cgroups_add(&c, 100 + i, path, i), 0);
	}
	assert_int_equal(site_cgroups_add(&c, 999, "/cg4", 1), 0); /* same path: same row */
	assert_int_equal(site_cgroups_keep_top(&c, CP_CGROUP_SLOTS), 0);
	assert_int_equal(c.nr, 8);
	assert_int_equal(c.v[0].calls, 10);
	assert_string_equal(c.v[0].path, "/cg10");
	assert_int_equal(c.v[7].calls, 3);
	for (i = 0; i < c.nr; i++)
		other += c.v[i].calls;
	assert_int_equal(c.other, 1 + 2);
	assert_int_equal(other + c.other, 55 + 1);
	assert_true(c.recorded);
	site_cgroups_free(&c);
}

static void sum_merges_by_path_then_id(void **state)
{
	struct site_cgroups a = { 0 }, b = { 0 };

	(void)state;
	assert_int_equal(site_cgroups_add(&a, 7, "/x", 5), 0);
	assert_int_equal(site_cgroups_add(&a, 8, NULL, 2), 0);
	a.other = 4;
	/* Another host: the same path under another id, the unnamed id again. */
	assert_int_equal(site_cgroups_add(&b, 70, "/x", 6), 0);
	assert_int_equal(site_cgroups_add(&b, 8, NULL, 3), 0);
	b.other = 1;
	assert_int_equal(site_cgroups_sum(&a, &b), 0);
	assert_int_equal(a.nr, 2);
	assert_string_equal(a.v[0].path, "/x");
	assert_int_equal(a.v[0].calls, 11);
	assert_null(a.v[1].path);
	assert_int_equal(a.v[1].calls, 5);
	assert_int_equal(a.other, 5);
	site_cgroups_free(&a);
	site_cgroups_free(&b);
}

static void json_round_trip(void **state)
{
	const char *path = "/kubepods/burstable/pod0b2f8c4e-1111-4a2b-9c3d-0123456789ab/c0ffee";
	struct site_cgroups c = { 0 }, back = { 0 };
	json_object *j, *row, *v;

	(void)state;
	assert_int_equal(site_cgroups_add(&c, 272, path, 1300), 0);
	assert_int_equal(site_cgroups_add(&c, 1, "/", 7), 0);
	c.other = 3;
	j = site_cgroups_to_json(&c);
	assert_int_equal(json_object_array_length(j), 3);
	row = json_object_array_get_idx(j, 0);
	assert_true(json_object_object_get_ex(row, "pod_uid", &v));
	assert_string_equal(json_object_get_string(v), "0b2f8c4e-1111-4a2b-9c3d-0123456789ab");
	assert_true(json_object_object_get_ex(row, "container_id", &v));
	assert_string_equal(json_object_get_string(v), "c0ffee");
	assert_false(json_object_object_get_ex(json_object_array_get_idx(j, 1), "pod_uid", &v));
	assert_int_equal(site_cgroups_from_json(j, &back, "t", 0), 0);
	assert_int_equal(back.nr, 2);
	assert_int_equal(back.v[0].id, 272);
	assert_int_equal(back.v[0].calls, 1300);
	assert_int_equal(back.other, 3);
	json_object_put(j);
	site_cgroups_free(&back);
	site_cgroups_free(&c);
}

static void refuses_bad_rows(void **state)
{
	const char *bad[] = { "{}", "[{\"id\": 1}]", "[{\"calls\": 1}]",
			      "[{\"id\": -1, \"calls\": 1}]", "[{\"id\": 1, \"calls\": \"x\"}]" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct site_cgroups c = { 0 };
		json_object *j = json_tokener_parse(bad[i]);

		assert_non_null(j);
		if (site_cgroups_from_json(j, &c, "t", 0) != -EINVAL)
			fail_msg("accepted %s", bad[i]);
		json_object_put(j);
		site_cgroups_free(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(top_eight_and_other),
		cmocka_unit_test(sum_merges_by_path_then_id),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(refuses_bad_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
