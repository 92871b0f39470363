// SPDX-License-Identifier: GPL-2.0
/* test_profile_diff.c: diff's significance tests, site matching and normalisation, by hand */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lib/hist.h"
#include "profile/diff_stats.h"
#include "profile/profile_diff.h"

#define near(x, y, tol) assert_true(fabs((x) - (y)) <= (tol))

static void rate_test_normal(void **state)
{
	/* N = 250, p0 = 1/2: z = 25 / sqrt(62.5) = 3.16228, p = erfc(z / sqrt 2) = 0.0015654. */
	near(diff_stats_rate(100, 1, 150, 1), 0.0015654022580, 1e-12);
	near(diff_stats_rate_z(100, 1, 150, 1), 3.16227766, 1e-8);
	/* Rates normalised by exposure: 100 in 1 s against 200 in 2 s is no change at all. */
	near(diff_stats_rate(100, 1, 200, 2), 1, 1e-12);
	/* 100 in 2 s, 300 in 4 s: p0 = 2/3, z = 3.5355339, p = 4.06952e-4. */
	near(diff_stats_rate(100, 2, 300, 4), 4.0695201744e-4, 1e-13);
}

static void rate_test_exact(void **state)
{
	/* 0 and 5 with equal exposure: P(X >= 5) = 1/32 for binomial(5, 1/2), twice that. */
	near(diff_stats_rate(0, 1, 5, 1), 2.0 / 32, 1e-12);
	/* 1 and 9: P(X >= 9) = 11/1024 for binomial(10, 1/2), p = 22/1024. */
	near(diff_stats_rate(1, 1, 9, 1), 22.0 / 1024, 1e-12);
	/* 3 and 3: each tail is 42/64, so twice the smaller is capped at 1. */
	near(diff_stats_rate(3, 1, 3, 1), 1, 1e-12);
	/* Nothing at all, or no exposure: no evidence of a change. */
	near(diff_stats_rate(0, 1, 0, 1), 1, 0);
	near(diff_stats_rate(5, 0, 7, 1), 1, 0);
}

static void proportion_test(void **state)
{
	/* 30 of 100 against 45 of 100: q = 0.375, z = 0.15 / 0.0684653 = 2.19089, p = 0.0284597. */
	near(diff_stats_prop(30, 100, 45, 100), 0.02845973691631, 1e-12);
	/* Pooled proportion 0 or 1, or an empty side: 1. */
	near(diff_stats_prop(0, 10, 0, 20), 1, 0);
	near(diff_stats_prop(10, 10, 20, 20), 1, 0);
	near(diff_stats_prop(1, 0, 2, 20), 1, 0);
}

/* ---- profiles by hand ---- */

static struct profile_site *site(struct profile *p, const char *target, const char *sym,
				 uint64_t off, const char *label)
{
	struct profile_site *s = profile_add_site(p);

	s->target = strdup(target);
	s->symbol = strdup(sym);
	s->offset = off;
	s->mechanism = strdup("kprobe");
	s->len_arg = strdup("rdx");
	s->label = label ? strdup(label) : NULL;
	return s;
}

static void add_calls(struct profile_site *s, uint64_t len, uint64_t n)
{
	uint32_t b = cp_bucket_of(len);

	assert_int_equal(sparse_hist_add(&s->buckets, b, n, n * len), 0);
	profile_site_sum(s);
}

static const struct profile_match_row *find(const struct profile_match_row *r, size_t n,
					    const char *sym, uint64_t off, int side)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(r[i].symbol, sym) && r[i].nr[side] && r[i].offset[side] == off)
			return &r[i];
	return NULL;
}

static void matching(void **state)
{
	struct profile *a = profile_new(), *b = profile_new();
	struct profile_match_row *rows;
	const struct profile_match_row *r;
	size_t nr;

	site(a, "vmlinux", "f", 0x10, NULL);
	site(a, "vmlinux", "g", 0x20, NULL);
	site(a, "vmlinux", "h", 0x5, "x");
	site(a, "app", "k", 0, NULL);
	site(a, "vmlinux", "z", 1, NULL);
	site(a, "vmlinux", "z", 2, NULL);
	site(a, "vmlinux", "y", 1, NULL);
	site(a, "vmlinux", "y", 2, NULL);
	site(b, "vmlinux", "z", 9, NULL);
	site(b, "vmlinux", "z", 7, NULL);
	site(b, "vmlinux", "y", 3, NULL);
	site(b, "vmlinux", "h", 0x5, NULL);
	site(b, "app", "m", 0, NULL);
	site(b, "vmlinux", "g", 0x28, NULL);
	site(b, "vmlinux", "f", 0x10, NULL);
	assert_int_equal(profile_match(a, b, &rows, &nr), 0);
	/* f g z(2) y(2 + 1) h(2) k m */
	assert_int_equal(nr, 11);
	r = find(rows, nr, "f", 0x10, 0);
	assert_non_null(r);
	assert_int_equal(r->kind, MATCH_EXACT);
	assert_int_equal(r->sites[0][0], 0);
	assert_int_equal(r->sites[1][0], 6);
	/* g moved from 0x20 to 0x28: matched by symbol. */
	r = find(rows, nr, "g", 0x20, 0);
	assert_int_equal(r->kind, MATCH_SYMBOL);
	assert_int_equal(r->offset[1], 0x28);
	/* Two z sites on each side: paired in offset order, 1 with 7 and 2 with 9. */
	r = find(rows, nr, "z", 1, 0);
	assert_int_equal(r->kind, MATCH_SYMBOL);
	assert_int_equal(r->offset[1], 7);
	r = find(rows, nr, "z", 2, 0);
	assert_int_equal(r->offset[1], 9);
	/* Two y before, one after: no guess; both vanished, the new one appeared. */
	assert_int_equal(find(rows, nr, "y", 1, 0)->kind, MATCH_VANISHED);
	assert_int_equal(find(rows, nr, "y", 2, 0)->kind, MATCH_VANISHED);
	assert_int_equal(find(rows, nr, "y", 3, 1)->kind, MATCH_APPEARED);
	/* The label is part of the identity: h [x] is not h. */
	assert_int_equal(find(rows, nr, "h", 0x5, 0)->kind, MATCH_VANISHED);
	assert_int_equal(find(rows, nr, "h", 0x5, 1)->kind, MATCH_APPEARED);
	assert_int_equal(find(rows, nr, "k", 0, 0)->kind, MATCH_VANISHED);
	assert_int_equal(find(rows, nr, "m", 0, 1)->kind, MATCH_APPEARED);
	/* Sorted by target, symbol, offset: app's first. */
	assert_string_equal(rows[0].target, "app");
	profile_match_free(rows, nr);
	profile_free(a);
	profile_free(b);
}

static const char *memcpy_family(const struct profile_site *s)
{
	(void)s;
	return "memcpy";
}

static void normalisation(void **state)
{
	struct profile *a = profile_new(), *b = profile_new();
	struct profile_diff_opts o = { .family_of = memcpy_family };
	struct profile_diff d;
	const struct diff_row *r;
	const struct diff_bucket *x;

	/* 100 calls in 2 s (60 of 64 B, 40 of 4096 B); 300 in 4 s (120 and 180). */
	a->meta.duration_s = 2;
	b->meta.duration_s = 4;
	add_calls(site(a, "vmlinux", "f", 0x10, NULL), 64, 60);
	add_calls(&a->sites[0], 4096, 40);
	add_calls(site(b, "vmlinux", "f", 0x10, NULL), 64, 120);
	add_calls(&b->sites[0], 4096, 180);
	assert_int_equal(profile_diff_check(a, "a", b, "b"), 0);
	assert_int_equal(profile_diff_build(a, b, &o, &d), 0);
	assert_true(d.per_second);
	assert_int_equal(d.nr_sites, 1);
	r = &d.sites[0];
	near(r->s[0].rate, 50, 1e-12);
	near(r->s[1].rate, 75, 1e-12);
	near(r->s[0].mean, (60 * 64 + 40 * 4096) / 100.0, 1e-9);
	near(r->p_calls, 4.0695201744e-4, 1e-13);
	assert_true(r->sig_calls);
	assert_int_equal(r->nr_buckets, 2);
	/* 64 B: 30/s both times, no change; its share 60% -> 40%: z = -3.4815531, p = 4.98515e-4. */
	x = &r->buckets[0];
	assert_int_equal(hist_bucket_lo(x->b), 64);
	near(x->rate[0], 30, 1e-12);
	near(x->rate[1], 30, 1e-12);
	near(x->p_count, 1, 1e-12);
	assert_false(x->sig_count);
	near(x->share[0], 0.6, 1e-12);
	near(x->share[1], 0.4, 1e-12);
	near(x->p_share, 4.985148935752e-4, 1e-14);
	assert_true(x->sig_share);
	/* 4096 B: 20/s -> 45/s: N = 220, p0 = 2/3, z = 4.7673129, p = 1.86699e-6. */
	x = &r->buckets[1];
	near(x->rate[1] - x->rate[0], 25, 1e-12);
	near(x->p_count, 1.8669919554781e-6, 1e-16);
	/* The family is the one site: share of all copy calls 100% on both sides. */
	near(d.families[0].s[0].share, 1, 0);
	profile_diff_free(&d);

	/* --totals: the same counts per recording, without the durations. */
	o.norm = DIFF_NORM_TOTALS;
	assert_int_equal(profile_diff_build(a, b, &o, &d), 0);
	assert_false(d.per_second);
	near(d.sites[0].s[0].rate, 100, 0);
	near(d.sites[0].s[1].rate, 300, 0);
	near(d.sites[0].buckets[0].p_count, diff_stats_rate(60, 1, 120, 1), 0);
	assert_false(profile_diff_none(&d));
	profile_diff_free(&d);
	profile_free(a);
	profile_free(b);
}

static void same_profile_is_no_change(void **state)
{
	struct profile *a = profile_new();
	struct profile_diff_opts o = { .family_of = memcpy_family };
	struct profile_diff d;

	a->meta.duration_s = 1;
	add_calls(site(a, "vmlinux", "f", 0x10, NULL), 64, 7);
	assert_int_equal(profile_diff_build(a, a, &o, &d), 0);
	assert_true(profile_diff_none(&d));
	near(d.sites[0].p_calls, 1, 1e-12);
	profile_diff_free(&d);
	profile_free(a);
}

/*
 * Like with like: two recordings of a command that ran to its end compare totals, two bounded
 * by time compare rates, a mixed pair rates (and says so); --totals and --rates choose.
 */
static void normalisation_policy(void **state)
{
	struct profile *a = profile_new(), *b = profile_new();
	struct profile_diff_opts o = { .family_of = memcpy_family };
	struct profile_diff d;

	a->meta.duration_s = 2;
	b->meta.duration_s = 2.1; /* the same work, a little slower */
	add_calls(site(a, "vmlinux", "f", 0x10, NULL), 64, 38486);
	add_calls(site(b, "vmlinux", "f", 0x10, NULL), 64, 38486);
	a->meta.command = strdup("tar xf x.tar");
	b->meta.command = strdup("tar xf x.tar");
	a->meta.ended_by = strdup("command");
	b->meta.ended_by = strdup("command");
	assert_int_equal(profile_diff_build(a, b, &o, &d), 0);
	assert_false(d.per_second);
	assert_non_null(strstr(d.norm_why, "both ran a command to its end"));
	near(d.sites[0].p_calls, 1, 1e-12);
	assert_true(profile_diff_none(&d)); /* the tar: no change, not +5.31% */
	profile_diff_free(&d);
	/* --rates: per second, and then equal counts in other times are a change. */
	o.norm = DIFF_NORM_RATES;
	assert_int_equal(profile_diff_build(a, b, &o, &d), 0);
	assert_true(d.per_second);
	assert_string_equal(d.norm_why, "--rates");
	assert_false(profile_diff_none(&d));
	profile_diff_free(&d);
	/* Cut short by -d: a stretch of time on one side, a mixed pair: rates, said. */
	o.norm = DIFF_NORM_AUTO;
	free(b->meta.ended_by);
	b->meta.ended_by = strdup("duration");
	assert_int_equal(profile_diff_build(a, b, &o, &d), 0);
	assert_true(d.per_second);
	assert_non_null(strstr(d.norm_why, "BEFORE ran a command to its end and AFTER was "
					   "bounded by time: a mixed pair"));
	profile_diff_free(&d);
	/* Both bounded by time (no command): rates. */
	free(a->meta.command);
	free(b->meta.command);
	a->meta.command = b->meta.command = NULL;
	free(a->meta.ended_by);
	a->meta.ended_by = strdup("signal");
	assert_int_equal(profile_diff_build(a, b, &o, &d), 0);
	assert_true(d.per_second);
	assert_non_null(strstr(d.norm_why, "both were bounded by time"));
	profile_diff_free(&d);
	/* An old profile (no ended_by) that names a command ran it to its end. */
	free(a->meta.ended_by);
	free(b->meta.ended_by);
	a->meta.ended_by = b->meta.ended_by = NULL;
	a->meta.command = strdup("dd");
	b->meta.command = strdup("dd");
	assert_int_equal(profile_diff_build(a, b, &o, &d), 0);
	assert_false(d.per_second);
	profile_diff_free(&d);
	/* No duration on one side: totals whatever is asked. */
	b->meta.duration_s = 0;
	o.norm = DIFF_NORM_RATES;
	assert_int_equal(profile_diff_build(a, b, &o, &d), 0);
	assert_false(d.per_second);
	assert_non_null(strstr(d.norm_why, "--rates, but AFTER has no duration"));
	profile_diff_free(&d);
	profile_free(a);
	profile_free(b);
}

static void refused_pairs(void **state)
{
	struct profile *a = profile_new(), *b = profile_new(), *e = profile_new();
	struct profile_site *s;

	add_calls(site(a, "vmlinux", "f", 0x10, NULL), 64, 7);
	s = site(b, "vmlinux", "f", 0x10, NULL);
	free(s->mechanism);
	s->mechanism = strdup("sample");
	add_calls(s, 64, 7);
	site(e, "vmlinux", "f", 0x10, NULL);
	assert_int_equal(profile_diff_check(a, "a", b, "b"), -EINVAL);
	assert_int_equal(profile_diff_check(a, "a", e, "e"), -EINVAL);
	assert_int_equal(profile_diff_check(e, "e", a, "a"), -EINVAL);
	assert_int_equal(profile_diff_check(a, "a", a, "a"), 0);
	profile_free(a);
	profile_free(b);
	profile_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rate_test_normal),	cmocka_unit_test(rate_test_exact),
		cmocka_unit_test(proportion_test),	cmocka_unit_test(matching),
		cmocka_unit_test(normalisation),	cmocka_unit_test(same_profile_is_no_change),
		cmocka_unit_test(normalisation_policy), cmocka_unit_test(refused_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
