// SPDX-License-Identifier: GPL-2.0
/* test_footprint.c: a site's footprint from sampled calls, its JSON, and the condition it implies */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include "estimate/estimate_footprint.h"
#include "profile/profile_footprint.h"

/* 64 calls of 1 KiB within one 8 KiB buffer a side: every line shared, the buffer's size. */
static void reused_buffers(void **state)
{
	struct footprint_call c[64];
	struct site_footprint f;
	int i;

	(void)state;
	for (i = 0; i < 64; i++)
		c[i] = (struct footprint_call){ (uint64_t)(64 - i), 0x100000 + (i % 8) * 1024,
						0x200000 + ((i + 3) % 8) * 1024, 1024 };
	site_footprint_compute(&f, c, 64, 64, true, true);
	assert_true(f.recorded);
	assert_int_equal(f.samples, 64);
	assert_int_equal(f.window_ns, 63);
	assert_int_equal(f.side[FOOTPRINT_DST].lines, 128);
	assert_int_equal(f.side[FOOTPRINT_DST].lines_once, 0);
	assert_int_equal(f.side[FOOTPRINT_DST].pages, 2);
	assert_int_equal(f.side[FOOTPRINT_DST].bytes, 8192);
	assert_int_equal(site_footprint_bytes(&f), 8192);
}

/* A stream: no line shared, each sample's lines stand for 64 calls', capped by the span. */
static void stream(void **state)
{
	struct footprint_call c[64];
	struct site_footprint f;
	int i;

	(void)state;
	/* calls of 4 KiB back to back, one sampled every 64: 256 KiB apart */
	for (i = 0; i < 64; i++)
		c[i] = (struct footprint_call){ (uint64_t)i, (uint64_t)i * 64 * 4096, 0, 4096 };
	site_footprint_compute(&f, c, 64, 64, true, false);
	assert_false(f.known[FOOTPRINT_SRC]);
	assert_int_equal(f.side[FOOTPRINT_DST].lines, 64 * 64);
	assert_int_equal(f.side[FOOTPRINT_DST].lines_once, 64 * 64);
	/* 64 x 64 x 4 KiB is 16 MiB; the span ends with the last sample's own 4 KiB */
	assert_int_equal(f.side[FOOTPRINT_DST].span, 63ULL * 64 * 4096 + 4096);
	assert_int_equal(f.side[FOOTPRINT_DST].bytes, f.side[FOOTPRINT_DST].span);
}

/* Too few samples say nothing; the JSON reads back as written; old profiles have none. */
static void json_and_limits(void **state)
{
	struct footprint_call c[4] = { { 1, 0x1000, 0x2000, 64 } };
	struct site_footprint f, g;
	json_object *o;

	(void)state;
	site_footprint_compute(&f, c, 4, 64, true, true);
	assert_int_equal(site_footprint_bytes(&f), 0);
	o = site_footprint_to_json(&f);
	assert_int_equal(site_footprint_from_json(o, &g, "t", 0), 0);
	assert_int_equal(g.every, 64);
	assert_int_equal(g.samples, 4);
	assert_int_equal(g.side[FOOTPRINT_SRC].bytes, f.side[FOOTPRINT_SRC].bytes);
	json_object_put(o);
	assert_int_equal(site_footprint_from_json(NULL, &g, "t", 0), 0);
	assert_false(g.recorded);
	o = json_tokener_parse("{\"every\": 0}");
	assert_int_equal(site_footprint_from_json(o, &g, "t", 0), -EINVAL);
	json_object_put(o);
}

/* Warm within the footprint rounded up to a power of two, from 4 KiB to 256 MiB. */
static void condition(void **state)
{
	const char *cache;
	uint64_t ws;

	(void)state;
	assert_false(est_footprint_condition(0, 1 << 20, &cache, &ws));
	assert_false(est_footprint_condition(8192, 0, &cache, &ws));
	assert_true(est_footprint_condition(100, 1 << 20, &cache, &ws));
	assert_string_equal(cache, "warm");
	assert_int_equal(ws, 4096);
	assert_true(est_footprint_condition(8128, 1 << 20, &cache, &ws));
	assert_int_equal(ws, 8192);
	assert_true(est_footprint_condition(13026496, 1 << 20, &cache, &ws));
	assert_int_equal(ws, 16 << 20);
	assert_true(est_footprint_condition(1ULL << 40, 1 << 20, &cache, &ws));
	assert_int_equal(ws, 256ULL << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reused_buffers),
		cmocka_unit_test(stream),
		cmocka_unit_test(json_and_limits),
		cmocka_unit_test(condition),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
