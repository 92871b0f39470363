// SPDX-License-Identifier: GPL-2.0
/* test_measure_retry.c: the one plausibility rule: judged, measured again, then refused or kept */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "measure/measure_retry.h"

/* A measurement that reads implausible for its first @bad attempts, or fails at @fail_at. */
struct fake {
	int bad, fail_at;
	int measured, judged, last_seen;
};

static int fake_measure(void *ctx, int attempt)
{
	struct fake *f = ctx;

	assert_int_equal(attempt, f->measured); /* attempts counted from 0, in order */
	f->measured++;
	return attempt == f->fail_at ? -EIO : 0;
}

static int fake_judge(void *ctx, int attempt, bool last, char *why, size_t len)
{
	struct fake *f = ctx;

	f->judged++;
	f->last_seen += last;
	if (attempt >= f->bad)
		return 0;
	snprintf(why, len, "attempt %d off", attempt);
	return -EDOM;
}

static int run(struct fake *f, int tries, bool refuse)
{
	struct measure_retry r = { "test", tries, refuse, fake_measure, fake_judge, f };

	return measure_retry_run(&r);
}

static void taken_first_time(void **state)
{
	struct fake f = { .bad = 0, .fail_at = -1 };

	(void)state;
	assert_int_equal(run(&f, 3, true), 0);
	assert_int_equal(f.measured, 1);
}

static void taken_when_measured_again(void **state)
{
	struct fake f = { .bad = 2, .fail_at = -1 };

	(void)state;
	assert_int_equal(run(&f, 3, true), 0);
	assert_int_equal(f.measured, 3);
	assert_int_equal(f.last_seen, 1); /* the third judging knew it was the last */
}

static void refused_after_every_try(void **state)
{
	struct fake f = { .bad = 9, .fail_at = -1 };

	(void)state;
	assert_int_equal(run(&f, 3, true), -EDOM);
	assert_int_equal(f.measured, 3);
	assert_int_equal(f.judged, 3);
	assert_int_equal(f.last_seen, 1);
}

static void kept_when_not_refusing(void **state)
{
	struct fake f = { .bad = 9, .fail_at = -1 };

	(void)state;
	assert_int_equal(run(&f, 2, false), MEASURE_RETRY_KEPT);
	assert_int_equal(f.measured, 2);
}

static void a_failure_ends_the_rule(void **state)
{
	struct fake f = { .bad = 9, .fail_at = 1 };

	(void)state;
	assert_int_equal(run(&f, 3, true), -EIO);
	assert_int_equal(f.measured, 2);
	assert_int_equal(f.judged, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(taken_first_time),
		cmocka_unit_test(taken_when_measured_again),
		cmocka_unit_test(refused_after_every_try),
		cmocka_unit_test(kept_when_not_refusing),
		cmocka_unit_test(a_failure_ends_the_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
