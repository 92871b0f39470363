// SPDX-License-Identifier: GPL-2.0
/* cmocka tests: deadline_run() waits for a call at most so long, and the call still ends */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "lib/deadline.h"

struct work {
	double sleep_s;
	int ended; /* set last, atomically */
};

static void work(void *arg)
{
	struct work *w = arg;
	struct timespec ts = { (time_t)w->sleep_s,
			       (long)((w->sleep_s - (double)(time_t)w->sleep_s) * 1e9) };

	nanosleep(&ts, NULL);
	__atomic_store_n(&w->ended, 1, __ATOMIC_RELEASE);
}

static void test_in_time(void **state)
{
	struct work w = { .sleep_s = 0.01 };

	(void)state;
	assert_int_equal(deadline_run(work, &w, 30), 0);
	assert_int_equal(__atomic_load_n(&w.ended, __ATOMIC_ACQUIRE), 1);
}

/* Given up on at the deadline; the call goes on to its end all the same. */
static void test_too_long(void **state)
{
	static struct work w = { .sleep_s = 1.5 };
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int i;

	(void)state;
	assert_int_equal(deadline_run(work, &w, 0.05), -ETIMEDOUT);
	for (i = 0; i < 3000 && !__atomic_load_n(&w.ended, __ATOMIC_ACQUIRE); i++)
		nanosleep(&tick, NULL);
	assert_int_equal(__atomic_load_n(&w.ended, __ATOMIC_ACQUIRE), 1);
}

/* No deadline: the call runs here, to its end. */
static void test_no_deadline(void **state)
{
	struct work w = { .sleep_s = 0.01 };

	(void)state;
	assert_int_equal(deadline_run(work, &w, 0), 0);
	assert_int_equal(w.ended, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_time),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_no_deadline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
