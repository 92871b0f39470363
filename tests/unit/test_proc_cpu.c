// SPDX-License-Identifier: GPL-2.0
/* test_proc_cpu.c: a running process's CPU time from /proc/PID/stat, and a gone one refused */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include "lib/proc_cpu.h"

/* Our own: what clock() says we used, within a clock tick either side (the two round apart). */
static void test_self(void **state)
{
	long tick = sysconf(_SC_CLK_TCK);
	volatile unsigned long x = 0;
	double cpu, c;
	unsigned long i;

	(void)state;
	for (i = 0; i < 200000000UL && (double)clock() / CLOCKS_PER_SEC < 0.2; i++)
		x += i;
	assert_int_equal(proc_cpu_read(getpid(), &cpu), 0);
	c = (double)clock() / CLOCKS_PER_SEC;
	assert_true(cpu >= 0);
	assert_true(cpu <= c + 2.0 / (double)tick);
	assert_true(cpu >= c - 2.0 / (double)tick - 0.05);
}

static void test_gone(void **state)
{
	double cpu;

	(void)state;
	/* pid_max is at most 2^22: this one never exists. */
	assert_int_equal(proc_cpu_read(1 << 23, &cpu), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_gone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
