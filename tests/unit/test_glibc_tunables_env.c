// SPDX-License-Identifier: GPL-2.0
/* test_glibc_tunables_env.c: one tunable set in a GLIBC_TUNABLES value, the others kept */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include "lib/glibc_tunables_env.h"

#define T "glibc.cpu.x86_rep_movsb_threshold"

static void expect(const char *existing, uint64_t v, const char *want)
{
	char *got = glibc_tunables_env_set(existing, T, v);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_set(void **state)
{
	(void)state;
	/* None yet: the one entry. */
	expect(NULL, 4096, T "=4096");
	expect("", 4096, T "=4096");
	/* Others kept in their order, the threshold appended. */
	expect("glibc.malloc.check=3", 4096, "glibc.malloc.check=3:" T "=4096");
	/* Replaced where it stood, only it. */
	expect("a.b.c=1:" T "=9999:d.e.f=2", 513, "a.b.c=1:" T "=513:d.e.f=2");
	/* Twice: one entry, at the first place. */
	expect(T "=1:x.y.z=5:" T "=2", 2048, T "=2048:x.y.z=5");
	/* A longer name that starts with it is another tunable; empty entries dropped. */
	expect(T "x=7::a=1:", 4096, T "x=7:a=1:" T "=4096");
	/* An entry without '=' is kept as it is (glibc's business to refuse). */
	expect("junk", 4096, "junk:" T "=4096");
	expect(T, 4096, T ":" T "=4096");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
