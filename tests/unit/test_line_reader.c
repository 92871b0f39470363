// SPDX-License-Identifier: GPL-2.0
/* test_line_reader.c: lines within both limits, a line or an input one byte over, NULs, chunks */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/line_reader.h"
#include "lib/log.h"

/* Reads all of @text with the given limits; returns the last result, lines counted in *@n. */
static int read_all(const char *text, size_t len, size_t max_line, uint64_t max_bytes, uint64_t *n)
{
	FILE *f = fmemopen((void *)text, len, "r");
	struct line_reader r;
	int ret;

	assert_non_null(f);
	line_reader_init(&r, f, "t", "a test input", max_line, max_bytes);
	*n = 0;
	while ((ret = line_reader_next(&r)) > 0) {
		(*n)++;
		assert_int_equal(r.lineno, *n);
		assert_true(r.len <= max_line);
	}
	line_reader_free(&r);
	fclose(f);
	return ret;
}

static void lines_and_last_without_newline(void **state)
{
	FILE *f = fmemopen("ab\n\ncd", 6, "r");
	struct line_reader r;

	line_reader_init(&r, f, "t", "a test input", 16, 1024);
	assert_int_equal(line_reader_next(&r), 1);
	assert_string_equal(r.line, "ab\n");
	assert_int_equal(r.len, 3);
	assert_int_equal(line_reader_next(&r), 1);
	assert_string_equal(r.line, "\n");
	assert_int_equal(line_reader_next(&r), 1);
	assert_string_equal(r.line, "cd"); /* the last line keeps no newline it did not have */
	assert_int_equal(r.lineno, 3);
	assert_int_equal(r.bytes, 6);
	assert_int_equal(line_reader_next(&r), 0);
	assert_int_equal(line_reader_next(&r), 0);
	line_reader_free(&r);
	fclose(f);
}

static void line_limit_exact(void **state)
{
	uint64_t n;

	/* "abc\n" is 4 bytes with its newline: at a limit of 4 it reads, at 3 it does not. */
	assert_int_equal(read_all("abc\nabc\n", 8, 4, 1024, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(read_all("abc\nabcd\n", 9, 4, 1024, &n), -E2BIG);
	assert_int_equal(n, 1);
	assert_int_equal(read_all("abcd", 4, 4, 1024, &n), 0);
	assert_int_equal(read_all("abcde", 5, 4, 1024, &n), -E2BIG);
	assert_string_equal(log_last_error(),
			    "t:1: line longer than 4 bytes (no newline within its "
			    "first 4 bytes), the most a test input may have "
			    "(docs/cli.md#input-limits)");
}

static void total_limit_exact(void **state)
{
	uint64_t n;

	assert_int_equal(read_all("a\nb\nc\n", 6, 16, 6, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(read_all("a\nb\nc\nd", 7, 16, 6, &n), -EFBIG);
	assert_int_equal(n, 3);
	assert_string_equal(log_last_error(), "t: more than 6 bytes, the most a test input may be "
					      "(docs/cli.md#input-limits)");
}

static void nul_bytes_are_counted(void **state)
{
	FILE *f = fmemopen("a\0b\n", 4, "r");
	struct line_reader r;

	line_reader_init(&r, f, "t", "a test input", 16, 1024);
	assert_int_equal(line_reader_next(&r), 1);
	assert_int_equal(r.len, 4);
	assert_int_equal(strlen(r.line), 1);
	line_reader_free(&r);
	fclose(f);
}

/* Lines that cross the reader's 64 KiB chunks come out whole. */
static void long_lines_across_chunks(void **state)
{
	size_t len = 300000, i;
	char *text = malloc(len);
	uint64_t n;

	assert_non_null(text);
	for (i = 0; i < len; i++)
		text[i] = i % 99999 == 99998 ? '\n' : 'x';
	assert_int_equal(read_all(text, len, 99999, len, &n), 0);
	assert_int_equal(n, 4); /* three of 99,999 bytes, then the 3 bytes left */
	assert_int_equal(read_all(text, len, 99998, len, &n), -E2BIG);
	assert_int_equal(n, 0);
	free(text);
}

static void folder_is_a_read_error(void **state)
{
	FILE *f = fopen("/", "r");
	struct line_reader r;

	assert_non_null(f);
	line_reader_init(&r, f, "/", "a test input", 16, 1024);
	assert_int_equal(line_reader_next(&r), -EISDIR);
	assert_string_equal(log_last_error(), "cannot read /: Is a directory");
	line_reader_free(&r);
	fclose(f);
}

static void sizes(void **state)
{
	char b[32];

	assert_string_equal(line_reader_size(4096, b, sizeof(b)), "4 KiB");
	assert_string_equal(line_reader_size(1ULL << 30, b, sizeof(b)), "1 GiB");
	assert_string_equal(line_reader_size(16ULL << 30, b, sizeof(b)), "16 GiB");
	assert_string_equal(line_reader_size(1000, b, sizeof(b)), "1000 bytes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_and_last_without_newline),
		cmocka_unit_test(line_limit_exact),
		cmocka_unit_test(total_limit_exact),
		cmocka_unit_test(nul_bytes_are_counted),
		cmocka_unit_test(long_lines_across_chunks),
		cmocka_unit_test(folder_is_a_read_error),
		cmocka_unit_test(sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
