// SPDX-License-Identifier: GPL-2.0
/* test_calib_judge.c: a point off its neighbours is kept if it reproduces; the rest is refused */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include "measure/calib_judge.h"

#define SIZES 3
#define RUNS 8

/*
 * One curve of three sizes, timed with a 1 GHz TSC (a tick is a ns). Each time the judging
 * measures again, the middle point gets the next of @again's medians, over three runs spread
 * by @spread ns either side.
 */
struct fake {
	double ticks[SIZES * RUNS];
	int n[SIZES];
	struct calib_runs rs;
	struct costmodel_limits lim;
	const double *again;
	size_t nr_again, used;
	double spread;
	int limit_calls;
};

static int fake_limits(void *ctx, struct costmodel_limits *lim)
{
	struct fake *f = ctx;

	f->limit_calls++;
	*lim = f->lim;
	return 0;
}

static void set_point(struct fake *f, size_t k, double ns, double spread)
{
	f->ticks[k * RUNS] = ns - spread;
	f->ticks[k * RUNS + 1] = ns;
	f->ticks[k * RUNS + 2] = ns + spread;
	f->n[k] = 3;
}

static int fake_again(void *ctx, const bool *want, int runs)
{
	struct fake *f = ctx;

	assert_true(runs >= 3);
	assert_false(want[0] || want[2]);
	assert_true(want[1]);
	assert_int_equal(f->n[1], 0); /* its runs were cleared */
	assert_true(f->used < f->nr_again);
	set_point(f, 1, f->again[f->used++], f->spread);
	return 0;
}

static const struct calib_judge_curve memcpy_dst = { "libc_memcpy", COSTMODEL_DST_FLUSHED, true };
static const struct calib_judge_curve clear_warm = { "libc_clear", COSTMODEL_WARM, false };

/* Judges the curve's sizes @sizes at @ns ns (spread @spread either side), store limits @lim. */
static int judge(struct fake *f, const struct calib_judge_curve *curve, const uint64_t *sizes,
		 const double *ns, double spread, const double *again, size_t nr_again,
		 const struct costmodel_limits *lim)
{
	static const struct calib_timer ghz = { .tsc_hz = 1e9 };
	struct costmodel_limits got = { 0 };
	struct calib_judge j = { .sizes = sizes,
				 .curves = curve,
				 .runs = 3,
				 .target_ci = 0.02,
				 .t = &ghz,
				 .measure_limits = fake_limits,
				 .measure_again = fake_again,
				 .ctx = f };
	size_t k;
	int err;

	memset(f, 0, sizeof(*f));
	f->rs = (struct calib_runs){ f->ticks, f->n, RUNS, SIZES, SIZES };
	f->lim = *lim;
	f->again = again;
	f->nr_again = nr_again;
	f->spread = spread;
	for (k = 0; k < SIZES; k++)
		set_point(f, k, ns[k], spread);
	j.rs = &f->rs;
	err = calib_judge_points(&j, &got);
	assert_true(got.store_bytes_per_ns == lim->store_bytes_per_ns);
	return err;
}

/* A machine twice as fast as any seen: stores at 520 B/ns, copies at 400, 0.4 ns a call. */
static const struct costmodel_limits fast = {
	.store_bytes_per_ns = 520,
	.store_loop = "avx512",
	.copy_bytes_per_ns = 400,
	.copy_loop = "rep_movsb",
	.call_ns = 0.4,
	.margin = COSTMODEL_LIMITS_MARGIN,
};

/*
 * Zen 5 (issue 33): libc_memcpy dst-flushed 256 B at 5.802 ns between 18 and 19 ns, and about
 * the same when measured again: kept, one measurement more, no refusal.
 */
static void off_neighbours_reproduced_is_kept(void **state)
{
	static const uint64_t sizes[SIZES] = { 128, 256, 512 };
	static const double ns[SIZES] = { 18, 5.802, 19 }, again[] = { 5.85 };
	struct fake f;

	(void)state;
	assert_int_equal(judge(&f, &memcpy_dst, sizes, ns, 0.05, again, 1, &fast), 0);
	assert_int_equal(f.used, 1);
	assert_int_equal(f.limit_calls, 2); /* measured before each judging */
}

/* Measured again it is like its neighbours: the first was a disturbance, the second is kept. */
static void off_neighbours_once_is_measured_again(void **state)
{
	static const uint64_t sizes[SIZES] = { 128, 256, 512 };
	static const double ns[SIZES] = { 18, 5.802, 19 }, again[] = { 18.4 };
	struct fake f;

	(void)state;
	assert_int_equal(judge(&f, &memcpy_dst, sizes, ns, 0.05, again, 1, &fast), 0);
	assert_int_equal(f.used, 1);
}

/* Three measurements, each far from the one before and off both neighbours: refused. */
static void timer_disagreeing_is_refused(void **state)
{
	static const uint64_t sizes[SIZES] = { 128, 256, 512 };
	static const double ns[SIZES] = { 18, 5.802, 19 }, again[] = { 2.0, 5.8 };
	struct fake f;

	(void)state;
	assert_int_equal(judge(&f, &memcpy_dst, sizes, ns, 0.05, again, 2, &fast), -ERANGE);
	assert_int_equal(f.used, 2);
}

/*
 * On the machine twice as fast, 2 KiB stored in 4 ns (512 B/ns) is real; 3 ns (683 B/ns) is
 * beyond its measured ceiling by more than the margin, measured twice more, then refused.
 */
static void floor_is_the_measured_ceiling(void **state)
{
	static const uint64_t sizes[SIZES] = { 1024, 2048, 4096 };
	static const double real[SIZES] = { 2.5, 4.0, 8.2 }, fake[SIZES] = { 2.5, 3.0, 8.2 };
	static const double again[] = { 3.0, 3.0 };
	struct fake f;

	(void)state;
	assert_int_equal(judge(&f, &clear_warm, sizes, real, 0.01, NULL, 0, &fast), 0);
	assert_int_equal(f.used, 0);
	assert_int_equal(judge(&f, &clear_warm, sizes, fake, 0.01, again, 2, &fast), -ERANGE);
	assert_int_equal(f.used, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(off_neighbours_reproduced_is_kept),
		cmocka_unit_test(off_neighbours_once_is_measured_again),
		cmocka_unit_test(timer_disagreeing_is_refused),
		cmocka_unit_test(floor_is_the_measured_ceiling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
