// SPDX-License-Identifier: GPL-2.0
/* test_costmodel.c: cost model round trip, interpolation, bucket averages, crossover, refusals */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "costmodel/costmodel.h"

#define TESTDIR_NAME "costmodel"
#include "testdir.h"

static void add(struct costmodel_curve *c, uint64_t size, double ns)
{
	struct costmodel_point p = { .size = size, .ns = ns, .spread = -1 };

	assert_int_equal(costmodel_curve_add_point(c, &p), 0);
}

/* A warm curve from (size, ns) pairs, in any order. Adding a curve may move the others. */
static void curve(struct costmodel *m, const char *name, size_t n, const double *xy)
{
	struct costmodel_curve *c = costmodel_add_curve(m, name, "memcpy", COSTMODEL_WARM);
	size_t i;

	assert_non_null(c);
	for (i = 0; i < n; i++)
		add(c, (uint64_t)xy[2 * i], xy[2 * i + 1]);
}

static const struct costmodel_curve *warm(const struct costmodel *m, const char *name)
{
	const struct costmodel_curve *c = costmodel_find(m, name, COSTMODEL_WARM);

	assert_non_null(c);
	return c;
}

static void round_trip(void **state)
{
	struct costmodel *m = costmodel_new(), *q = NULL;
	struct costmodel_point p = { .size = 4096,
				     .ns = 67.12,
				     .cycles = 140.7,
				     .spread = 0.0123,
				     .ns_min = 66.5,
				     .ns_max = 67.3 };
	struct costmodel_curve *c;
	const struct costmodel_curve *r;

	m->meta.kernel = strdup("6.12.0-test");
	m->meta.cpu_model = strdup("Test CPU");
	m->meta.cpu_flags = calloc(1, sizeof(char *));
	m->meta.cpu_flags[0] = strdup("fsrm");
	m->meta.nr_cpu_flags = 1;
	m->erms = false;
	m->measured = true;
	m->note = strdup("a \"quoted\" note");
	m->tsc_hz = 2.1e9;
	m->cpu = 3;
	m->runs = 5;
	m->limits = (struct costmodel_limits){ .store_bytes_per_ns = 253.64,
					       .store_loop = "avx512",
					       .copy_bytes_per_ns = 130.25,
					       .copy_loop = "rep_movsb",
					       .call_ns = 1.0816,
					       .margin = 0.25 };
	c = costmodel_add_curve(m, "erms_threshold", "memcpy", COSTMODEL_DST_FLUSHED);
	c->align_dst = 7;
	c->align_src = 63;
	c->threshold = 2048;
	assert_int_equal(costmodel_curve_add_point(c, &p), 0);
	add(c, 32, 10.5);
	assert_int_equal(costmodel_curve_add_point(c, &p), -EEXIST);
	/* A curve without points is refused on reading (issue 13): give this one a point. */
	add(costmodel_add_curve(m, "movsb", "memcpy", COSTMODEL_WARM), 64, 5.0);

	assert_int_equal(costmodel_write(m, path_in_dir("a.json")), 0);
	assert_int_equal(costmodel_read(path_in_dir("a.json"), &q), 0);
	assert_string_equal(q->meta.kernel, "6.12.0-test");
	assert_string_equal(q->meta.cpu_flags[0], "fsrm");
	assert_string_equal(q->note, "a \"quoted\" note");
	assert_false(q->erms);
	assert_true(q->measured);
	assert_int_equal(q->cpu, 3);
	assert_int_equal(q->runs, 5);
	assert_true(q->tsc_hz == 2.1e9);
	assert_true(q->limits.store_bytes_per_ns == 253.64 &&
		    q->limits.copy_bytes_per_ns == 130.25);
	assert_true(q->limits.call_ns == 1.0816 && q->limits.margin == 0.25);
	assert_string_equal(q->limits.store_loop, "avx512");
	assert_string_equal(q->limits.copy_loop, "rep_movsb");
	assert_int_equal(q->nr_curves, 2);
	r = costmodel_find(q, "erms_threshold", COSTMODEL_DST_FLUSHED);
	assert_non_null(r);
	assert_null(costmodel_find(q, "erms_threshold", COSTMODEL_WARM));
	assert_string_equal(r->family, "memcpy");
	assert_int_equal(r->align_dst, 7);
	assert_int_equal(r->align_src, 63);
	assert_int_equal(r->threshold, 2048);
	assert_int_equal(r->nr_points, 2);
	/* Sorted by size on the way in, whatever the order of arrival. */
	assert_int_equal(r->points[0].size, 32);
	assert_true(r->points[0].spread < 0); /* unknown stays unknown */
	assert_true(r->points[1].ns == 67.12);
	assert_true(r->points[1].cycles == 140.7);
	assert_true(r->points[1].spread == 0.0123);
	assert_true(r->points[1].ns_min == 66.5 && r->points[1].ns_max == 67.3);
	assert_int_equal(costmodel_find(q, "movsb", COSTMODEL_WARM)->threshold, -1);
	costmodel_free(m);
	costmodel_free(q);
}

static void unknown_fields_are_ignored(void **state)
{
	struct costmodel *q = NULL;

	write_text("u.json", "{\"format\":\"copyprof-costmodel\",\"version\":1,\"future\":[1],"
			     "\"meta\":{\"cpu_model\":\"X\",\"new\":{}},\"impls\":["
			     "{\"name\":\"movsb\",\"cache\":\"warm\",\"colour\":\"red\",\"points\":"
			     "[{\"size\":64,\"ns\":5,\"p99\":9}]},"
			     "{\"name\":\"movsb\",\"cache\":\"l2-flushed\",\"points\":[]}]}");
	assert_int_equal(costmodel_read(path_in_dir("u.json"), &q), 0);
	assert_string_equal(q->meta.cpu_model, "X");
	assert_true(q->erms && q->measured);		  /* defaults when absent */
	assert_false(costmodel_limits_known(&q->limits)); /* a model from before limits */
	assert_int_equal(q->nr_curves, 1);		  /* the unknown cache state is skipped */
	assert_true(costmodel_cost_ns(costmodel_find(q, "movsb", COSTMODEL_WARM), 64) == 5);
	costmodel_free(q);
}

static void refusals(void **state)
{
	static const char *const bad[] = {
		"this is not json",
		"[]",
		"{\"format\":\"copyprof-profile\",\"version\":1,\"impls\":[]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":2,\"impls\":[]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":0,\"impls\":[]}",
		"{\"format\":\"copyprof-costmodel\",\"impls\":[]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"impls\":[1]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"impls\":[{\"cache\":\"warm\","
		"\"points\":[]}]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"impls\":[{\"name\":\"a\","
		"\"cache\":\"warm\"}]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"impls\":[{\"name\":\"a\","
		"\"cache\":\"warm\",\"points\":[{\"size\":0,\"ns\":1}]}]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"impls\":[{\"name\":\"a\","
		"\"cache\":\"warm\",\"points\":[{\"size\":1.5,\"ns\":1}]}]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"impls\":[{\"name\":\"a\","
		"\"cache\":\"warm\",\"points\":[{\"size\":8,\"ns\":-1}]}]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"impls\":[{\"name\":\"a\","
		"\"cache\":\"warm\",\"points\":[{\"size\":8,\"ns\":\"fast\"}]}]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"impls\":[{\"name\":\"a\","
		"\"cache\":\"warm\",\"points\":[{\"size\":8,\"ns\":1,\"spread\":\"x\"}]}]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"impls\":[{\"name\":\"a\","
		"\"cache\":\"warm\",\"points\":[{\"size\":8,\"ns\":1},{\"size\":8,\"ns\":2}]}]}",
		/* limits: every figure positive, the margin below 1, both loops named */
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"limits\":{\"store_bytes_per_"
		"ns\":0,"
		"\"store_loop\":\"avx512\",\"copy_bytes_per_ns\":100,\"copy_loop\":\"avx512\","
		"\"call_ns\":1,\"margin\":0.25},\"impls\":[{\"name\":\"a\",\"cache\":\"warm\","
		"\"points\":[{\"size\":8,\"ns\":1}]}]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"limits\":{\"store_bytes_per_"
		"ns\":100,"
		"\"store_loop\":\"avx512\",\"copy_bytes_per_ns\":100,\"copy_loop\":\"avx512\","
		"\"call_ns\":1,\"margin\":1},\"impls\":[{\"name\":\"a\",\"cache\":\"warm\","
		"\"points\":[{\"size\":8,\"ns\":1}]}]}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"limits\":{\"store_bytes_per_"
		"ns\":100,"
		"\"copy_bytes_per_ns\":100,\"copy_loop\":\"avx512\",\"call_ns\":1,\"margin\":0.25},"
		"\"impls\":[{\"name\":\"a\",\"cache\":\"warm\",\"points\":[{\"size\":8,\"ns\":1}]}]"
		"}",
		"{\"format\":\"copyprof-costmodel\",\"version\":1,\"limits\":[1],\"impls\":[{"
		"\"name\":"
		"\"a\",\"cache\":\"warm\",\"points\":[{\"size\":8,\"ns\":1}]}]}",
	};
	struct costmodel *q = NULL;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		write_text("bad.json", bad[i]);
		if (costmodel_read(path_in_dir("bad.json"), &q) == 0)
			fail_msg("accepted: %s", bad[i]);
	}
	assert_int_equal(costmodel_read(path_in_dir("missing.json"), &q), -ENOENT);
}

static void interpolation(void **state)
{
	static const double flat_end[] = { 400, 30, 100, 10, 200, 30 };
	static const double rising[] = { 256, 26, 4096, 122 };
	struct costmodel *m = costmodel_new();
	const struct costmodel_curve *c, *r;
	struct costmodel_curve *one;

	curve(m, "a", 3, flat_end);
	curve(m, "b", 2, rising);
	one = costmodel_add_curve(m, "one", "memcpy", COSTMODEL_WARM);
	c = warm(m, "a");
	r = warm(m, "b");

	assert_true(costmodel_cost_ns(c, 100) == 10); /* measured points exactly */
	assert_true(costmodel_cost_ns(c, 200) == 30);
	assert_true(costmodel_cost_ns(c, 150) == 20); /* straight line between them */
	assert_true(costmodel_cost_ns(c, 125) == 15);
	assert_true(costmodel_cost_ns(c, 300) == 30);
	assert_true(costmodel_cost_ns(c, 1) == 10);    /* flat below the first */
	assert_true(costmodel_cost_ns(c, 1e6) == 30);  /* last slope (0) above the last */
	assert_true(costmodel_cost_ns(r, 2176) == 74); /* halfway between 256 and 4096 */
	assert_true(costmodel_cost_ns(r, 8192) == 26 + 96.0 / 3840 * 7936);
	assert_true(isnan(costmodel_cost_ns(one, 10))); /* no points */
	add(one, 64, 7);
	assert_true(costmodel_cost_ns(one, 1) == 7 && costmodel_cost_ns(one, 1 << 20) == 7);
	costmodel_free(m);
}

static void falling_tail_never_extrapolates_below(void **state)
{
	static const double xy[] = { 64, 10, 128, 20, 256, 18 };
	struct costmodel *m = costmodel_new();
	const struct costmodel_curve *c;

	curve(m, "a", 3, xy);
	c = warm(m, "a");

	assert_true(costmodel_cost_ns(c, 200) < 20 && costmodel_cost_ns(c, 200) > 18);
	assert_true(costmodel_cost_ns(c, 100000) == 18);
	costmodel_free(m);
}

/* The average over [lo, hi) equals the brute-force mean of cost(n) over those integers. */
static void bucket_average(void **state)
{
	static const double xy[] = { 10, 5, 64, 12, 100, 40, 256, 41, 1024, 200 };
	static const uint64_t ranges[][2] = { { 1, 2 },	     { 1, 10 },	   { 3, 11 },
					      { 60, 72 },    { 64, 100 },  { 64, 101 },
					      { 1, 2000 },   { 256, 257 }, { 900, 5000 },
					      { 2048, 2304 } };
	struct costmodel *m = costmodel_new();
	const struct costmodel_curve *c;
	double avg, mid;
	size_t i;

	curve(m, "a", 5, xy);
	c = warm(m, "a");

	for (i = 0; i < sizeof(ranges) / sizeof(*ranges); i++) {
		double sum = 0;
		uint64_t n;

		for (n = ranges[i][0]; n < ranges[i][1]; n++)
			sum += costmodel_cost_ns(c, (double)n);
		avg = costmodel_avg_ns(c, ranges[i][0], ranges[i][1]);
		if (fabs(avg - sum / (double)(ranges[i][1] - ranges[i][0])) > 1e-9 * avg)
			fail_msg("[%llu, %llu): %.12f, brute force %.12f",
				 (unsigned long long)ranges[i][0], (unsigned long long)ranges[i][1],
				 avg, sum / (double)(ranges[i][1] - ranges[i][0]));
	}
	/* Huge buckets cost no time: the last line, at the mean length. */
	avg = costmodel_avg_ns(c, 1ULL << 39, 1ULL << 40);
	mid = ((double)(1ULL << 39) + (double)(1ULL << 40) - 1) / 2;
	assert_true(fabs(avg - costmodel_cost_ns(c, mid)) < 1e-9 * avg);
	assert_true(isnan(costmodel_avg_ns(c, 5, 5)));
	costmodel_free(m);
}

static void crossover(void **state)
{
	static const double orig[] = { 32, 10, 64, 14, 128, 18, 256, 26, 4096, 372 };
	static const double movsb[] = { 32, 23, 64, 23, 128, 29, 256, 32, 4096, 123 };
	static const double dip[] = { 32, 5, 64, 30, 128, 18, 256, 26, 4096, 100 };
	static const double dear[] = { 32, 50, 4096, 500 };
	struct costmodel *m = costmodel_new();
	const struct costmodel_curve *o, *r, *d, *e;
	double x = 0, expect;

	curve(m, "memcpy_orig", 5, orig);
	curve(m, "movsb", 5, movsb);
	curve(m, "dip", 5, dip);
	curve(m, "dear", 2, dear);
	o = warm(m, "memcpy_orig");
	r = warm(m, "movsb");
	d = warm(m, "dip");
	e = warm(m, "dear");

	/* Between 256 (6 dearer) and 4096 (249 cheaper): zero of the difference. */
	expect = 256 + 6.0 * 3840 / (6 + 249);
	assert_int_equal(costmodel_crossover(o, r, &x), 0);
	assert_true(x == ceil(expect));
	/* The last crossing counts: d is cheaper at 32, dearer at 64, cheaper again from ~100. */
	assert_int_equal(costmodel_crossover(o, d, &x), 0);
	assert_true(x > 64 && x <= 128);
	/* o against itself: never dearer, so from the first size. */
	assert_int_equal(costmodel_crossover(o, o, &x), 0);
	assert_true(x == 32);
	assert_int_equal(costmodel_crossover(o, e, &x), -ENOENT);
	costmodel_free(m);
}

static void cache_names(void **state)
{
	int c;

	for (c = 0; c < COSTMODEL_NR_CACHES; c++)
		assert_int_equal(costmodel_cache_parse(costmodel_cache_name(c)), c);
	assert_int_equal(costmodel_cache_parse("flushed"), -1);
	assert_int_equal(costmodel_cache_parse(NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(unknown_fields_are_ignored),
		cmocka_unit_test(refusals),
		cmocka_unit_test(interpolation),
		cmocka_unit_test(falling_tail_never_extrapolates_below),
		cmocka_unit_test(bucket_average),
		cmocka_unit_test(crossover),
		cmocka_unit_test(cache_names),
	};

	return cmocka_run_group_tests(tests, testdir_setup, testdir_teardown);
}
