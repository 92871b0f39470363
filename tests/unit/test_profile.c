// SPDX-License-Identifier: GPL-2.0
/* test_profile.c: profile JSON round trip, forward compatibility and refusals */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "profile/profile.h"

#define TESTDIR_NAME "profile"
#include "testdir.h"

static struct profile *sample_profile(void)
{
	struct profile *p = profile_new();
	struct profile_site *s = profile_add_site(p);

	p->meta.kernel = strdup("6.12.0-test");
	p->meta.cpu_model = strdup("Test CPU");
	p->meta.cpu_flags = calloc(2, sizeof(char *));
	p->meta.cpu_flags[0] = strdup("erms");
	p->meta.nr_cpu_flags = 1;
	p->meta.duration_s = 1.5;
	s->target = strdup("/bin/x");
	s->symbol = strdup("f");
	s->offset = 0x10;
	s->mechanism = strdup("uprobe");
	s->len_arg = strdup("arg2");
	assert_int_equal(sparse_hist_add(&s->buckets, cp_bucket_of(4096), 200000, 200000ULL * 4096),
			 0);
	assert_int_equal(sparse_hist_add(&s->buckets, 7, 5, 35), 0);
	assert_int_equal(sparse_hist_add(&s->buckets, cp_bucket_of(1ULL << 41), 1, 1ULL << 41), 0);
	assert_int_equal(site_align_add(&s->align, 1, 3, 0), 0);
	assert_int_equal(site_align_add(&s->align, 0, 0, 200006), 0);
	profile_site_sum(s);
	p->glibc = calloc(1, sizeof(*p->glibc));
	p->glibc->ldso = strdup("/lib64/ld-linux-x86-64.so.2");
	p->glibc->tunables = strdup("glibc.cpu.x86_rep_movsb_threshold=4096");
	p->glibc->rep_movsb_threshold = (struct glibc_tunable){
		.present = true, .value = 4096, .min = 513, .max = UINT64_MAX
	};
	p->glibc->rep_stosb_threshold = (struct glibc_tunable){
		.present = true, .value = 2048, .min = 1, .max = UINT64_MAX
	};
	p->glibc->movsb_default = 2112;
	p->glibc->stosb_default = 2048;
	return p;
}

static void round_trip(void **state)
{
	struct profile *p = sample_profile(), *q = NULL;
	uint64_t dst[CP_ALIGN_SLOTS], src[CP_ALIGN_SLOTS];
	uint32_t b;

	assert_int_equal(profile_write(p, path_in_dir("a.json")), 0);
	assert_int_equal(profile_read(path_in_dir("a.json"), &q), 0);
	assert_int_equal(q->nr_sites, 1);
	assert_string_equal(q->meta.kernel, "6.12.0-test");
	assert_string_equal(q->meta.cpu_flags[0], "erms");
	assert_true(q->meta.duration_s == 1.5);
	assert_string_equal(q->sites[0].symbol, "f");
	assert_int_equal(q->sites[0].offset, 0x10);
	assert_int_equal(q->sites[0].calls, 200006);
	assert_true(q->sites[0].bytes == 200000ULL * 4096 + 35 + (1ULL << 41));
	for (b = 0; b < CP_NBUCKETS; b++) {
		struct hist_slot x = sparse_hist_get(&q->sites[0].buckets, b),
				 y = sparse_hist_get(&p->sites[0].buckets, b);

		assert_true(x.count == y.count);
		assert_true(x.bytes == y.bytes);
	}
	assert_int_equal(q->sites[0].buckets.nr, 3); /* only the non-empty buckets are kept */
	site_align_dense(&q->sites[0].align, dst, src);
	assert_int_equal(dst[1], 3);
	assert_int_equal(src[0], 200006);
	/* meta.glibc: the thresholds the process copied with, and glibc's defaults. */
	assert_non_null(q->glibc);
	assert_string_equal(q->glibc->tunables, "glibc.cpu.x86_rep_movsb_threshold=4096");
	assert_int_equal(q->glibc->rep_movsb_threshold.value, 4096);
	assert_int_equal(q->glibc->rep_movsb_threshold.min, 513);
	assert_int_equal(q->glibc->movsb_default, 2112);
	assert_int_equal(q->glibc->rep_stosb_threshold.value, 2048);
	/* Written before versions were recorded: no version, no root. */
	assert_int_equal(q->glibc->major, 0);
	assert_null(q->glibc->root);
	profile_free(p);
	profile_free(q);
}

/* meta.glibc: the version and root alone (the loader not run), or with the thresholds. */
static void glibc_version_round_trip(void **state)
{
	struct profile *p = sample_profile(), *q = NULL;
	struct profile_glibc *g;
	json_object *o;

	(void)state;
	p->glibc->major = 2;
	p->glibc->minor = 41;
	p->glibc->root = strdup("/srv/trixie");
	p->glibc->build_id = strdup("93f70d1a8ae34f8e63c223f1500327fbd717f871");
	assert_int_equal(profile_write(p, path_in_dir("v.json")), 0);
	assert_int_equal(profile_read(path_in_dir("v.json"), &q), 0);
	assert_int_equal(q->glibc->major, 2);
	assert_int_equal(q->glibc->minor, 41);
	assert_string_equal(q->glibc->root, "/srv/trixie");
	assert_string_equal(q->glibc->build_id, "93f70d1a8ae34f8e63c223f1500327fbd717f871");
	assert_true(q->glibc->rep_movsb_threshold.present);
	profile_free(q);

	o = json_tokener_parse("{\"version\": \"2.41\", \"root\": \"/\"}");
	g = profile_glibc_from_json(o, "test");
	assert_non_null(g);
	assert_false(g->rep_movsb_threshold.present);
	assert_int_equal(g->minor, 41);
	profile_glibc_free(g);
	json_object_put(o);
	o = json_tokener_parse("{\"version\": \"2.x\"}");
	assert_null(profile_glibc_from_json(o, "test: a bad version is refused"));
	json_object_put(o);
	o = json_tokener_parse("{\"root\": \"/\"}");
	assert_null(profile_glibc_from_json(o, "test: neither version nor thresholds is refused"));
	json_object_put(o);
	profile_free(p);
}

static void no_temp_files_left(void **state)
{
	struct profile *p = sample_profile();
	struct dirent *d;
	DIR *dp;

	assert_int_equal(profile_write(p, path_in_dir("b.json")), 0);
	dp = opendir(dir);
	assert_non_null(dp);
	while ((d = readdir(dp)))
		assert_null(strstr(d->d_name, ".tmp."));
	closedir(dp);
	profile_free(p);
}

static void unknown_fields_are_ignored(void **state)
{
	struct profile *q = NULL;

	write_text("c.json", "{\"format\":\"copyprof-profile\",\"version\":1,\"future\":[1,2],"
			     "\"meta\":{\"kernel\":\"k\",\"new\":{}},\"sites\":[{\"id\":0,"
			     "\"callers\":[],\"buckets\":[{\"lo\":2048,\"hi\":2304,\"count\":2,"
			     "\"bytes\":4100,\"extra\":1}]}]}");
	assert_int_equal(profile_read(path_in_dir("c.json"), &q), 0);
	assert_int_equal(q->sites[0].calls, 2);
	assert_int_equal(q->sites[0].bytes, 4100);
	profile_free(q);
}

/* A site's source position survives JSON, inline chain order included. */
static void source_round_trip(void **state)
{
	struct profile *p = sample_profile(), *q;
	struct source_pos *src = calloc(1, sizeof(*src));
	json_object *root;

	src->file = strdup("/src/a.c");
	src->line = 17;
	src->inlined = calloc(2, sizeof(*src->inlined));
	src->inlined[0] = (struct source_inline){ strdup("outer"), strdup("/src/a.c"), 9 };
	src->inlined[1] = (struct source_inline){ strdup("inner"), strdup("/src/b.h"), 30 };
	src->nr_inlined = 2;
	p->sites[0].source = src;
	root = profile_to_json(p);
	assert_int_equal(profile_from_json(root, "test", &q), 0);
	json_object_put(root);
	assert_non_null(q->sites[0].source);
	assert_string_equal(q->sites[0].source->file, "/src/a.c");
	assert_int_equal(q->sites[0].source->line, 17);
	assert_int_equal(q->sites[0].source->nr_inlined, 2);
	assert_string_equal(q->sites[0].source->inlined[1].function, "inner");
	assert_string_equal(q->sites[0].source->inlined[1].file, "/src/b.h");
	assert_int_equal(q->sites[0].source->inlined[0].line, 9);
	profile_free(q);
	profile_free(p);
}

static void refusals(void **state)
{
	static const char *const bad[] = {
		"this is not json",
		"{\"format\":\"something-else\",\"version\":1,\"sites\":[]}",
		"{\"format\":\"copyprof-profile\",\"version\":2,\"sites\":[]}",
		"{\"format\":\"copyprof-profile\",\"sites\":[]}",
		"{\"format\":\"copyprof-profile\",\"version\":1}",
		"{\"format\":\"copyprof-profile\",\"version\":1,\"sites\":[{\"buckets\":"
		"[{\"lo\":100,\"hi\":101,\"count\":1}]}]}",
		"{\"format\":\"copyprof-profile\",\"version\":1,\"sites\":[{\"buckets\":"
		"[{\"lo\":-1,\"hi\":0,\"count\":1}]}]}",
		"{\"format\":\"copyprof-profile\",\"version\":1,\"sites\":[{}]}",
		"[]",
	};
	struct profile *q = NULL;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		write_text("bad.json", bad[i]);
		assert_int_not_equal(profile_read(path_in_dir("bad.json"), &q), 0);
	}
	assert_int_not_equal(profile_read(path_in_dir("missing.json"), &q), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(no_temp_files_left),
		cmocka_unit_test(glibc_version_round_trip),
		cmocka_unit_test(unknown_fields_are_ignored),
		cmocka_unit_test(source_round_trip),
		cmocka_unit_test(refusals),
	};

	return cmocka_run_group_tests(tests, testdir_setup, testdir_teardown);
}
