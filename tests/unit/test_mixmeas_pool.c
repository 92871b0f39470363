// SPDX-License-Identifier: GPL-2.0
/* test_mixmeas_pool.c: sittings of one paired measurement pooled, and kept or replaced */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "costmodel/costmodel.h"
#include "costmodel/costmodel_paired.h"
#include "costmodel/mixmeas_pool.h"
#include "costmodel/protocol.h"

/* A sitting of memcpy mix "d1" with rows today and T=512, T=512 at @d (@lo .. @hi). */
static void sitting(struct mixmeas *m, double when, double d, double lo, double hi, uint64_t chunk)
{
	memset(m, 0, sizeof(*m));
	m->family = strdup("memcpy");
	m->digest = strdup("d1");
	m->today = strdup("movsb");
	m->weight = strdup("calls");
	m->cache = strdup("warm");
	m->alignment = strdup("uniform");
	m->chunk_calls = chunk;
	m->ws_bytes = 262144;
	m->rounds = 1000;
	m->quiet_rounds = 600;
	m->busy_rounds = 400;
	m->batches = 4;
	m->time_s = 10;
	m->quiet_tolerance = 0.05;
	m->same_code_gap_pct = NAN;
	m->when = when;
	m->first_when = when;
	m->sittings = 1;
	m->control = (struct mixmeas_figure){ 0, -0.1 * (1 + when / 100), 0.1 };
	m->nr_rows = 2;
	m->rows = calloc(2, sizeof(*m->rows));
	strcpy(m->rows[0].name, "today");
	strcpy(m->rows[1].name, "T=512");
	m->rows[1].key = (struct policy_key){ POLICY_THRESHOLD, 512 };
	m->rows[1].quiet = (struct mixmeas_figure){ d, lo, hi };
	m->rows[1].busy = (struct mixmeas_figure){ NAN, NAN, NAN };
	m->rows[1].ns_per_call = 10 + d / 10;
}

/* Two sittings in two states: the mean, the span of both intervals; sums; the newest's rest. */
static void pooled_two(void **state)
{
	struct mixmeas a, b, p;
	const struct mixmeas *s[2] = { &a, &b };
	const struct mixmeas_row *r;

	(void)state;
	sitting(&a, 1000, 302.8, 302.1, 306.2, 4096);
	sitting(&b, 1400, 306.8, 304.4, 307.3, 4096);
	assert_true(mixmeas_same_measurement(&a, &b));
	assert_int_equal(mixmeas_pool(s, 2, &p), 0);
	r = mixmeas_row_find(&p, &(struct policy_key){ POLICY_THRESHOLD, 512 });
	assert_non_null(r);
	assert_true(fabs(r->quiet.delta_pct - 304.8) < 1e-9);
	assert_true(r->quiet.ci_low == 302.1 && r->quiet.ci_high == 307.3);
	assert_true(isnan(r->busy.delta_pct));
	assert_true(fabs(r->ns_per_call - (10 + 304.8 / 10)) < 1e-9);
	assert_true(p.control.ci_low == -0.1 * (1 + 1400.0 / 100) && p.control.ci_high == 0.1);
	assert_int_equal(p.rounds, 2000);
	assert_int_equal(p.quiet_rounds, 1200);
	assert_int_equal(p.batches, 8);
	assert_true(p.time_s == 20 && p.sittings == 2);
	assert_true(p.first_when == 1000 && p.when == 1400);
	mixmeas_free(&p);
	mixmeas_free(&a);
	mixmeas_free(&b);
}

/* Stored: the same measurement joins (the count returned), another chunk replaces, 8 at most. */
static void stored(void **state)
{
	struct costmodel m;
	struct mixmeas x;
	const struct mixmeas *s[MIXMEAS_MAX_SITTINGS];
	int i;

	(void)state;
	memset(&m, 0, sizeof(m));
	sitting(&x, 1000, 1, 0, 2, 4096);
	assert_int_equal(costmodel_store_paired(&m, &x), 1);
	sitting(&x, 1100, 2, 1, 3, 4096);
	assert_int_equal(costmodel_store_paired(&m, &x), 2);
	assert_int_equal(costmodel_paired_sittings(&m, "memcpy", "d1", NULL, NULL, s, 8), 2);
	assert_true(s[0]->when == 1000 && s[1]->when == 1100);
	sitting(&x, 1200, 3, 2, 4, 2048); /* another chunk: another measurement */
	assert_int_equal(costmodel_store_paired(&m, &x), 1);
	assert_int_equal(costmodel_paired_sittings(&m, "memcpy", "d1", NULL, NULL, s, 8), 1);
	assert_true(s[0]->chunk_calls == 2048);
	for (i = 0; i < 9; i++) {
		sitting(&x, 2000 + i, 1, 0, 2, 2048);
		costmodel_store_paired(&m, &x);
	}
	assert_int_equal(costmodel_paired_sittings(&m, "memcpy", "d1", NULL, NULL, s, 8), 8);
	assert_true(s[0]->when == 2001 && s[7]->when == 2008); /* the oldest dropped */
	assert_int_equal(m.nr_paired, 8);
	for (i = 0; i < (int)m.nr_paired; i++)
		mixmeas_free(&m.paired[i]);
	free(m.paired);
}

/*
 * A site's own measurement is filed beside the whole mix's (the same family and digest): never
 * a sitting of it, found only by its site, and written and read back with its site; an entry
 * without "site" (an older model) is the whole mix's.
 */
static void site_apart(void **state)
{
	struct costmodel m;
	struct mixmeas x, back;
	const struct mixmeas *s[MIXMEAS_MAX_SITTINGS];
	json_object *o;
	int i;

	(void)state;
	memset(&m, 0, sizeof(m));
	sitting(&x, 1000, 1, 0, 2, 4096);
	assert_int_equal(costmodel_store_paired(&m, &x), 1);
	sitting(&x, 1100, 7, 6, 8, 4096);
	x.site = strdup("app:app_copy+0x0 <- main+0x10 (uprobe)");
	assert_string_equal(mixmeas_why_apart(&m.paired[0], &x),
			    "another mix, today's code or weighting");
	assert_int_equal(costmodel_store_paired(&m, &x), 1);
	assert_int_equal(m.nr_paired, 2);
	assert_int_equal(costmodel_paired_sittings(&m, "memcpy", "d1", NULL, NULL, s, 8), 1);
	assert_true(s[0]->when == 1000);
	assert_int_equal(costmodel_paired_sittings(&m, "memcpy", "d1",
						   "app:app_copy+0x0 <- main+0x10 (uprobe)", NULL,
						   s, 8),
			 1);
	assert_true(s[0]->when == 1100);
	assert_int_equal(costmodel_paired_sittings(&m, "memcpy", "d1", "other", NULL, s, 8), 0);
	o = mixmeas_to_json(&m.paired[1]);
	assert_int_equal(mixmeas_from_json(o, "test", &back), 0);
	assert_string_equal(back.site, "app:app_copy+0x0 <- main+0x10 (uprobe)");
	mixmeas_free(&back);
	json_object_object_del(o, "site");
	assert_int_equal(mixmeas_from_json(o, "test", &back), 0);
	assert_null(back.site);
	mixmeas_free(&back);
	json_object_put(o);
	for (i = 0; i < (int)m.nr_paired; i++)
		mixmeas_free(&m.paired[i]);
	free(m.paired);
}

/*
 * The protocol: the build's own written and read back equal; one constant or the version
 * changed keeps two sittings apart (and says which); a sitting without one (an older file)
 * pools only with its like; an incomplete protocol is refused.
 */
static void protocol_apart(void **state)
{
	struct measure_protocol cur, back;
	struct mixmeas a, b;
	json_object *o;

	(void)state;
	measure_protocol_current(&cur);
	assert_int_equal(cur.version, MEASURE_PROTOCOL_VERSION);
	assert_int_equal(cur.min_quiet, PAIRED_MIN_QUIET);
	assert_true(cur.settled_pct == PAIRED_SETTLED_PCT);
	o = measure_protocol_to_json(&cur);
	assert_non_null(o);
	assert_int_equal(measure_protocol_from_json(o, "test", &back), 0);
	assert_true(measure_protocol_same(&cur, &back));
	json_object_object_del(o, "bootstrap");
	assert_int_equal(measure_protocol_from_json(o, "test", &back), -EINVAL);
	assert_int_equal(back.version, 0);
	json_object_put(o);

	sitting(&a, 1000, 1, 0, 2, 4096);
	sitting(&b, 1100, 2, 1, 3, 4096);
	assert_null(mixmeas_why_apart(&a, &b)); /* neither recorded one: older files */
	a.protocol = cur;
	assert_string_equal(mixmeas_why_apart(&a, &b),
			    "another version of the measurement protocol");
	b.protocol = cur;
	assert_null(mixmeas_why_apart(&a, &b));
	b.protocol.quiet_ladder[0] = 0.02;
	assert_string_equal(mixmeas_why_apart(&a, &b),
			    "other constants of the measurement protocol");
	b.protocol = cur;
	b.protocol.batches = PAIRED_BATCHES + 1;
	assert_false(mixmeas_same_measurement(&a, &b));
	mixmeas_free(&a);
	mixmeas_free(&b);
}

/*
 * Cells of a matrix (calibrate --mix's conditions): the same mix in another cache state or
 * working set is kept beside, never pooled and never replacing; each condition's sittings pool
 * among themselves alone; a cell that differs in anything else (the chunk) replaces them all.
 */
static void conditions_apart(void **state)
{
	struct costmodel m;
	struct mixmeas x;
	const struct mixmeas *s[MIXMEAS_MAX_SITTINGS], *c[4];
	char buf[64];
	int i;

	(void)state;
	memset(&m, 0, sizeof(m));
	sitting(&x, 1000, 18, 17, 19, 4096); /* warm, 256 KiB a side */
	assert_int_equal(costmodel_store_paired(&m, &x), 1);
	sitting(&x, 1100, -19, -20, -18, 4096);
	x.ws_bytes = 8192;
	assert_string_equal(mixmeas_why_apart(&m.paired[0], &x), MIXMEAS_OTHER_CELL);
	assert_true(mixmeas_other_cell(&m.paired[0], &x));
	assert_int_equal(costmodel_store_paired(&m, &x), 1); /* its own first sitting */
	sitting(&x, 1200, -13, -14, -12, 4096);
	free(x.cache);
	x.cache = strdup("dst-flushed");
	assert_int_equal(costmodel_store_paired(&m, &x), 1);
	sitting(&x, 1300, 17, 16, 18, 4096); /* warm, 256 KiB again: a second sitting of it */
	assert_int_equal(costmodel_store_paired(&m, &x), 2);
	assert_int_equal(m.nr_paired, 4);
	assert_int_equal(costmodel_paired_conditions(&m, "memcpy", "d1", NULL, c, 4), 3);
	assert_string_equal(mixmeas_condition(c[0], buf, sizeof(buf)), "warm, 256 KiB a side");
	assert_string_equal(mixmeas_condition(c[1], buf, sizeof(buf)), "warm, 8 KiB a side");
	assert_string_equal(mixmeas_condition(c[2], buf, sizeof(buf)),
			    "dst-flushed, 256 KiB a side");
	assert_int_equal(costmodel_paired_sittings(&m, "memcpy", "d1", NULL, c[0], s, 8), 2);
	assert_true(s[0]->when == 1000 && s[1]->when == 1300);
	assert_int_equal(costmodel_paired_sittings(&m, "memcpy", "d1", NULL, c[1], s, 8), 1);
	assert_true(s[0]->when == 1100);
	/* Another chunk: not a cell of the same matrix; it replaces every condition. */
	sitting(&x, 1400, 1, 0, 2, 2048);
	assert_int_equal(costmodel_store_paired(&m, &x), 1);
	assert_int_equal(m.nr_paired, 1);
	for (i = 0; i < (int)m.nr_paired; i++)
		mixmeas_free(&m.paired[i]);
	free(m.paired);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pooled_two), cmocka_unit_test(conditions_apart),
		cmocka_unit_test(stored),     cmocka_unit_test(protocol_apart),
		cmocka_unit_test(site_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
