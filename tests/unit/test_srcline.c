// SPDX-License-Identifier: GPL-2.0
/* test_srcline.c: DWARF file:line and inline chain of addresses in this test binary itself */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "lib/elfsyms.h"
#include "kernel/srcline.h"

static volatile int sink;

enum { HELPER_LINE = __LINE__ + 4 };
static inline __attribute__((always_inline)) void srcline_helper(int x)
{
	__asm__ volatile("" ::: "memory");
	sink = x * 7 + 3;
	__asm__ volatile("" ::: "memory");
}

/* The first statement's line, and the line that calls the helper. */
enum { PROBE_LINE = __LINE__ + 3, CALL_LINE = __LINE__ + 4 };
__attribute__((noinline)) int srcline_probe_me(int x)
{
	sink = x + 1;
	srcline_helper(x);
	return sink;
}

static const char *base_name(const char *p)
{
	return strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
}

/* The first instruction after the prologue is the function's first statement. */
static void function_line(void **state)
{
	struct source_pos *src = NULL;
	struct elf_func f;
	uint64_t off;

	assert_int_equal(elfsyms_resolve("/proc/self/exe", "srcline_probe_me", 0, &f), 0);
	for (off = 0; off < f.size && !src; off++) {
		src = srcline_lookup(f.path, f.vaddr + off);
		if (src && src->line != PROBE_LINE) {
			source_pos_free(src);
			src = NULL;
		}
	}
	assert_non_null(src);
	assert_string_equal(base_name(src->file), "test_srcline.c");
	source_pos_free(src);
	elf_func_free(&f);
}

/* Some address of the function lies in the inlined helper: its chain names it and the call. */
static void inline_chain(void **state)
{
	struct source_pos *src = NULL;
	struct elf_func f;
	uint64_t off;

	assert_int_equal(elfsyms_resolve("/proc/self/exe", "srcline_probe_me", 0, &f), 0);
	for (off = 0; off < f.size && !src; off++) {
		src = srcline_lookup(f.path, f.vaddr + off);
		if (src && !src->nr_inlined) {
			source_pos_free(src);
			src = NULL;
		}
	}
	assert_non_null(src);
	assert_int_equal(src->nr_inlined, 1);
	assert_string_equal(src->inlined[0].function, "srcline_helper");
	assert_string_equal(base_name(src->inlined[0].file), "test_srcline.c");
	assert_int_equal(src->inlined[0].line, CALL_LINE);
	assert_true(src->line >= HELPER_LINE - 1 && src->line <= HELPER_LINE + 1);
	source_pos_free(src);
	elf_func_free(&f);
}

/* No DWARF is no error: NULL, quietly. */
static void missing_file(void **state)
{
	assert_null(srcline_lookup("/nonexistent/copyprof-srcline", 0x1000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(function_line),
		cmocka_unit_test(inline_chain),
		cmocka_unit_test(missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
