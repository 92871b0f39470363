/* SPDX-License-Identifier: GPL-2.0 */
/* testdir.h: a scratch folder for one cmocka test program, made before its tests, removed after */
#ifndef CP_TESTDIR_H
#define CP_TESTDIR_H

/*
 * Define TESTDIR_NAME ("profile") before including; the folder is /tmp/cp-test-NAME.XXXXXX.
 * Include after <cmocka.h>. Pass testdir_setup and testdir_teardown to cmocka_run_group_tests.
 */
#include <stdio.h>
#include <stdlib.h>

static char dir[] = "/tmp/cp-test-" TESTDIR_NAME ".XXXXXX";

/* @name inside the folder; the buffer is reused by the next call. */
static char *path_in_dir(const char *name)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

static void write_text(const char *name, const char *text)
{
	FILE *f = fopen(path_in_dir(name), "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int testdir_setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int testdir_teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

#endif
