// SPDX-License-Identifier: GPL-2.0
/* test_env_copy.c: the environment handed to a child, an entry left out, room for more */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "lib/env_copy.h"

static size_t count(char **env, const char *entry)
{
	size_t i, n = 0;

	for (i = 0; env[i]; i++)
		n += !strcmp(env[i], entry);
	return n;
}

/* CP_T=1 is left out, CP_TX=2 (a longer name) and CP=3 (a shorter) are kept; room for two. */
static void test_drop_and_room(void **state)
{
	size_t n, all = 0;
	char **env;

	(void)state;
	setenv("CP_T", "1", 1);
	setenv("CP_TX", "2", 1);
	setenv("CP", "3", 1);
	env = env_copy(NULL, 0, &all);
	assert_non_null(env);
	assert_int_equal(count(env, "CP_T=1"), 1);
	free(env);
	env = env_copy("CP_T", 2, &n);
	assert_non_null(env);
	assert_int_equal(n, all - 1);
	assert_int_equal(count(env, "CP_T=1"), 0);
	assert_int_equal(count(env, "CP_TX=2"), 1);
	assert_int_equal(count(env, "CP=3"), 1);
	assert_null(env[n]);
	env[n] = "A=1";
	env[n + 1] = "B=2";
	assert_null(env[n + 2]); /* still terminated after the room is used */
	free(env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_and_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
