// SPDX-License-Identifier: GPL-2.0
/* test_ctrl_escape.c: C0 and C1 controls and invalid UTF-8 shown, all else kept; cut sequences */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/ctrl_escape.h"

static void expect(const char *in, size_t len, const char *want)
{
	char *got = ctrl_escape_dup(in, len);

	assert_non_null(got);
	assert_string_equal(got, want);
	assert_int_equal(ctrl_escape_clean(in, len), !strcmp(in, want) && strlen(in) == len);
	free(got);
}

/* The literal's length, NUL bytes inside it counted. */
#define EXPECT(lit, want) expect(lit, sizeof(lit) - 1, want)

static void controls(void **state)
{
	EXPECT("evil\x1b]0;pwned\x07\x1b[2J", "evil\\x1b]0;pwned\\x07\\x1b[2J");
	EXPECT("a\rb\x7f", "a\\x0db\x7f"); /* DEL is harmless: kept */
	EXPECT("tab\tnl\n", "tab\tnl\n");
	EXPECT("nul\0x", "nul\\x00x");
	EXPECT("c1 \xc2\x9b[2J", "c1 \\u009b[2J");
	EXPECT("c1 \xc2\x80 \xc2\x9f", "c1 \\u0080 \\u009f");
}

/* Bidirectional controls reorder what follows on the screen: shown, every one of them. */
static void bidi(void **state)
{
	EXPECT("file\xe2\x80\xaegnp.exe", "file\\u202egnp.exe"); /* RLO */
	EXPECT("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad", "\\u202a\\u202b\\u202c\\u202d");
	EXPECT("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9", "\\u2066\\u2067\\u2068\\u2069");
	EXPECT("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\u200e\\u200f\\u061c");
	/* Their neighbours are text: U+202F (narrow no-break space), U+2065, U+2070, Arabic. */
	EXPECT("\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xb0\xd8\xa8",
	       "\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xb0\xd8\xa8");
}

static void utf8(void **state)
{
	EXPECT("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	EXPECT("\xc2\xa0nbsp", "\xc2\xa0nbsp"); /* U+00A0: past the C1 range */
	EXPECT("lone \x9b", "lone \\x9b");
	EXPECT("cut \xe2\x82", "cut \\xe2\\x82");
	EXPECT("over \xc0\xaf", "over \\xc0\\xaf");
	EXPECT("json \\u001b \\\\", "json \\u001b \\\\"); /* JSON's escapes pass as they are */
}

static int collect(void *ctx, const char *s, size_t len)
{
	strncat(ctx, s, len);
	return 0;
}

/* A sequence cut by the end of one write is completed by the next, not escaped. */
static void across_writes(void **state)
{
	struct ctrl_escape st = { 0 };
	char out[128] = "";

	assert_int_equal(ctrl_escape_write(&st, "ab\xe2", 3, false, collect, out), 0);
	assert_string_equal(out, "ab");
	assert_int_equal(ctrl_escape_write(&st, "\x82", 1, false, collect, out), 0);
	assert_int_equal(ctrl_escape_write(&st, "\xac\xc2", 2, false, collect, out), 0);
	assert_int_equal(ctrl_escape_write(&st, "\x9b!", 2, false, collect, out), 0);
	assert_string_equal(out, "ab\xe2\x82\xac\\u009b!");
	assert_int_equal(ctrl_escape_write(&st, "\xf0\x9f", 2, false, collect, out), 0);
	assert_int_equal(ctrl_escape_write(&st, "", 0, true, collect, out), 0);
	assert_string_equal(out, "ab\xe2\x82\xac\\u009b!\\xf0\\x9f");
	assert_int_equal(st.nr_carry, 0);
}

static void long_input(void **state)
{
	size_t len = 10000, i;
	char *in = malloc(len + 1), *got;

	assert_non_null(in);
	for (i = 0; i < len; i++)
		in[i] = i % 100 == 99 ? '\x1b' : 'x';
	got = ctrl_escape_dup(in, len);
	assert_non_null(got);
	assert_int_equal(strlen(got), len + 100 * 3);
	free(got);
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(controls),   cmocka_unit_test(utf8),
		cmocka_unit_test(bidi),	      cmocka_unit_test(across_writes),
		cmocka_unit_test(long_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
