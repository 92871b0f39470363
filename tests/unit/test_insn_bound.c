// SPDX-License-Identifier: GPL-2.0
/* test_insn_bound.c: uprobe offsets must start an instruction: boundaries of known code */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "lib/insn_bound.h"

/* sub $8,%rsp; call rel32; add $8,%rsp; ret: wl_copy of tests/workload/copyload.c at -O2. */
static const uint8_t code[] = {
	0x48, 0x83, 0xec, 0x08,	      /* 0: sub rsp, 8 */
	0xe8, 0x00, 0x00, 0x00, 0x00, /* 4: call */
	0x48, 0x83, 0xc4, 0x08,	      /* 9: add rsp, 8 */
	0xc3,			      /* 13: ret */
};

static void boundaries_accepted(void **state)
{
	static const uint64_t ok[] = { 0, 4, 9, 13 };
	struct insn_bound b;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(*ok); i++)
		assert_int_equal(insn_bound_find(code, sizeof(code), ok[i], &b), 0);
}

static void inside_refused_with_neighbours(void **state)
{
	struct insn_bound b;
	uint64_t off;

	for (off = 1; off < 4; off++) {
		assert_int_equal(insn_bound_find(code, sizeof(code), off, &b), 1);
		assert_int_equal(b.before, 0);
		assert_int_equal(b.after, 4);
		assert_string_equal(b.mnemonic, "sub rsp, 8");
	}
	for (off = 5; off < 9; off++) {
		assert_int_equal(insn_bound_find(code, sizeof(code), off, &b), 1);
		assert_int_equal(b.before, 4);
		assert_int_equal(b.after, 9);
	}
	assert_int_equal(insn_bound_find(code, sizeof(code), 12, &b), 1);
	assert_int_equal(b.before, 9);
	assert_int_equal(b.after, 13);
}

static void past_end_and_undecodable(void **state)
{
	static const uint8_t bad[] = { 0x90, 0x06, 0x90, 0x90 }; /* nop; push es (not in 64-bit) */
	struct insn_bound b;

	assert_int_equal(insn_bound_find(code, sizeof(code), 14, &b), -ERANGE);
	assert_int_equal(insn_bound_find(bad, sizeof(bad), 0, &b), 0);
	assert_int_equal(insn_bound_find(bad, sizeof(bad), 3, &b), -EINVAL);
	assert_int_equal(b.before, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(boundaries_accepted),
		cmocka_unit_test(inside_refused_with_neighbours),
		cmocka_unit_test(past_end_and_undecodable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
