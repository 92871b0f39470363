// SPDX-License-Identifier: GPL-2.0
/* test_profile_args.c: arguments numbered as bpftrace's (arg0 first), old profiles renumbered */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "profile/profile.h"
#include "profile/profile_args.h"
#include "lib/sparse_hist.h"

#define SITE(LEN) "{\"id\":0,\"len_arg\":\"" LEN "\",\"buckets\":[]}"

static struct profile *parse(const char *text)
{
	json_object *root = json_tokener_parse(text);
	struct profile *p = NULL;
	int err;

	assert_non_null(root);
	err = profile_from_json(root, "test", &p);
	json_object_put(root);
	return err ? NULL : p;
}

/* A profile without "arg_base" counted from arg1: its third argument (arg3) is arg2 now. */
static void old_profiles_renumbered(void **state)
{
	struct profile *p =
		parse("{\"format\":\"copyprof-profile\",\"version\":1,\"meta\":{},"
		      "\"sites\":[" SITE("arg3") "," SITE("arg2") "," SITE("arg1") "," SITE(
			      "arg6") "," SITE("rdx") "," SITE("recovered") "]}");

	assert_non_null(p);
	assert_string_equal(p->sites[0].len_arg, "arg2");
	assert_string_equal(p->sites[1].len_arg, "arg1");
	assert_string_equal(p->sites[2].len_arg, "arg0");
	assert_string_equal(p->sites[3].len_arg, "arg5");
	assert_string_equal(p->sites[4].len_arg, "rdx");
	assert_string_equal(p->sites[5].len_arg, "recovered");
	profile_free(p);
}

/* Profiles copyprof writes now say arg_base 0 and keep their names as they are. */
static void new_profiles_kept(void **state)
{
	struct profile *p = parse("{\"format\":\"copyprof-profile\",\"version\":1,"
				  "\"meta\":{\"arg_base\":0},\"sites\":[" SITE("arg2") "," SITE(
					  "arg0") "]}"),
		       *q;
	json_object *root, *meta, *v;

	assert_non_null(p);
	assert_string_equal(p->sites[0].len_arg, "arg2");
	assert_string_equal(p->sites[1].len_arg, "arg0");
	root = profile_to_json(p);
	assert_true(json_object_object_get_ex(root, "meta", &meta));
	assert_true(json_object_object_get_ex(meta, "arg_base", &v));
	assert_int_equal(json_object_get_int(v), 0);
	/* Read back: not renumbered a second time. */
	assert_int_equal(profile_from_json(root, "again", &q), 0);
	assert_string_equal(q->sites[0].len_arg, "arg2");
	json_object_put(root);
	profile_free(q);
	profile_free(p);
}

static void bad_bases_refused(void **state)
{
	assert_null(
		parse("{\"format\":\"copyprof-profile\",\"version\":1,\"meta\":{\"arg_base\":2},"
		      "\"sites\":[]}"));
	assert_null(parse("{\"format\":\"copyprof-profile\",\"version\":1,"
			  "\"meta\":{\"arg_base\":\"zero\"},\"sites\":[]}"));
	assert_null(parse("{\"format\":\"copyprof-profile\",\"version\":1,"
			  "\"meta\":{\"arg_base\":-1},\"sites\":[]}"));
}

/* Most lengths at 2^40 or more: a pointer read as the length. */
static void pointers_as_lengths(void **state)
{
	struct profile_site s = { 0 };
	struct sample_site_info si = { 0 };

	sparse_hist_slot(&s.buckets, CP_OVERFLOW_BUCKET)->count = 51;
	sparse_hist_slot(&s.buckets, cp_bucket_of(4096))->count = 49;
	s.calls = 100;
	assert_true(profile_site_len_suspect(&s));
	sparse_hist_slot(&s.buckets, CP_OVERFLOW_BUCKET)->count = 50;
	sparse_hist_slot(&s.buckets, cp_bucket_of(4096))->count = 50;
	assert_false(profile_site_len_suspect(&s)); /* half is not most */
	sparse_hist_slot(&s.buckets, CP_OVERFLOW_BUCKET)->count = 100;
	sparse_hist_slot(&s.buckets, cp_bucket_of(4096))->count = 0;
	assert_true(profile_site_len_suspect(&s));
	s.sample = &si; /* a sampled site's lengths are recovered and checked below 2^40 */
	assert_false(profile_site_len_suspect(&s));
	s.sample = NULL;
	s.calls = 0;
	assert_false(profile_site_len_suspect(&s));
	sparse_hist_free(&s.buckets);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(old_profiles_renumbered),
		cmocka_unit_test(new_profiles_kept),
		cmocka_unit_test(bad_bases_refused),
		cmocka_unit_test(pointers_as_lengths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
