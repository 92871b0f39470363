// SPDX-License-Identifier: GPL-2.0
/* test_target_spec.c: the --uprobe PATH:SYMBOL[+OFF][,len=REG] syntax */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include "lib/regs.h"
#include "record/target_spec.h"

static void memcpy_like_defaults(void **state)
{
	struct target_spec t;
	char err[128];

	assert_int_equal(target_spec_parse("/usr/lib/libc.so.6:memcpy", &t, err, sizeof(err)), 0);
	assert_string_equal(t.path, "/usr/lib/libc.so.6");
	assert_string_equal(t.symbol, "memcpy");
	assert_int_equal(t.offset, 0);
	assert_int_equal(t.len_reg, CP_REG_ARG2);
	assert_int_equal(t.dst_reg, CP_REG_ARG0);
	assert_int_equal(t.src_reg, CP_REG_ARG1);
	target_spec_free(&t);
}

static void clear_like_and_registers(void **state)
{
	struct target_spec t;
	char err[128];

	assert_int_equal(target_spec_parse("./a.out:wl_clear,len=arg1", &t, err, sizeof(err)), 0);
	assert_int_equal(t.len_reg, CP_REG_ARG1);
	assert_int_equal(t.src_reg, CP_REG_NONE);
	target_spec_free(&t);
	assert_int_equal(
		target_spec_parse("x:f+0x1c,len=rcx,dst=rdi,src=none", &t, err, sizeof(err)), 0);
	assert_int_equal(t.offset, 0x1c);
	assert_int_equal(t.len_reg, CP_REG_RCX);
	assert_int_equal(t.src_reg, CP_REG_NONE);
	target_spec_free(&t);
	assert_int_equal(target_spec_parse("x:f+16,len=dx", &t, err, sizeof(err)), 0);
	assert_int_equal(t.offset, 16);
	assert_int_equal(t.len_reg, CP_REG_RDX);
	target_spec_free(&t);
	/* A path with a colon: the last colon separates the symbol. */
	assert_int_equal(target_spec_parse("/tmp/a:b/prog:main", &t, err, sizeof(err)), 0);
	assert_string_equal(t.path, "/tmp/a:b/prog");
	target_spec_free(&t);
}

static void malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"noseparator",
		":sym",
		"path:",
		"path:+4",
		"p:f+",
		"p:f+0xzz",
		"p:f,len",
		"p:f,len=arg9",
		"p:f,len=arg6", /* arguments count from arg0: arg5 is the sixth */
		"p:f,len=none",
		"p:f,color=red",
		"p:f,len=xmm0",
	};
	struct target_spec t;
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		err[0] = 0;
		assert_int_not_equal(target_spec_parse(bad[i], &t, err, sizeof(err)), 0);
		assert_true(strlen(err) > 0);
	}
}

static void kernel_form(void **state)
{
	struct target_spec t;
	char err[128];

	assert_int_equal(target_spec_parse_kernel("ZSTD_decompressStream+0x794,len=rdx", &t, err,
						  sizeof(err)),
			 0);
	assert_null(t.path);
	assert_string_equal(t.symbol, "ZSTD_decompressStream");
	assert_int_equal(t.offset, 0x794);
	assert_int_equal(t.len_reg, CP_REG_RDX);
	target_spec_free(&t);
	assert_int_equal(
		target_spec_parse_kernel("btrfs:btrfs_decompress_buf2page", &t, err, sizeof(err)),
		0);
	assert_string_equal(t.path, "btrfs");
	assert_string_equal(t.symbol, "btrfs_decompress_buf2page");
	target_spec_free(&t);
	assert_int_equal(target_spec_parse_kernel("read_zero,len=arg2", &t, err, sizeof(err)), 0);
	assert_int_equal(t.len_reg, CP_REG_ARG2);
	target_spec_free(&t);
	assert_int_not_equal(target_spec_parse_kernel("", &t, err, sizeof(err)), 0);
	assert_int_not_equal(target_spec_parse_kernel("f+zz", &t, err, sizeof(err)), 0);
	assert_int_not_equal(target_spec_parse_kernel("mod:", &t, err, sizeof(err)), 0);
}

static void register_names(void **state)
{
	assert_int_equal(reg_parse("rax"), CP_REG_RAX);
	assert_int_equal(reg_parse("ax"), CP_REG_RAX);
	assert_int_equal(reg_parse("r15"), CP_REG_R15);
	assert_int_equal(reg_parse("5"), -1);
	/* bpftrace's numbering: arg0 is the first argument (rdi), arg2 the third (rdx). */
	assert_int_equal(reg_parse("arg0"), CP_REG_ARG0);
	assert_int_equal(reg_parse("arg5"), CP_REG_ARG5);
	assert_int_equal(reg_parse("arg6"), -1);
	assert_int_equal(reg_to_gpr(CP_REG_ARG0), CP_REG_RDI);
	assert_int_equal(reg_to_gpr(CP_REG_ARG2), CP_REG_RDX);
	assert_int_equal(reg_to_gpr(CP_REG_ARG3), CP_REG_RCX);
	assert_int_equal(reg_to_gpr(CP_REG_ARG5), CP_REG_R9);
	assert_int_equal(reg_to_gpr(CP_REG_R9), CP_REG_R9);
	assert_string_equal(reg_name(CP_REG_ARG2), "arg2");
	assert_true(reg_len_is_clear_like("arg1"));
	assert_false(reg_len_is_clear_like("arg2"));
	assert_false(reg_len_is_clear_like(NULL));
}

/* PATH:0xOFFSET: a file offset where the symbol would be, options as usual. */
static void file_offset_form(void **state)
{
	struct target_spec t;
	char err[128];

	assert_int_equal(target_spec_parse("./app:0x1714,len=rcx", &t, err, sizeof(err)), 0);
	assert_true(t.at_file_offset);
	assert_int_equal(t.file_offset, 0x1714);
	assert_int_equal(t.offset, 0);
	assert_string_equal(t.path, "./app");
	assert_string_equal(t.symbol, "0x1714");
	assert_int_equal(t.len_reg, CP_REG_RCX);
	target_spec_free(&t);
	assert_int_equal(target_spec_parse("/lib/libc.so.6:5908", &t, err, sizeof(err)), 0);
	assert_true(t.at_file_offset);
	assert_int_equal(t.file_offset, 5908);
	assert_string_equal(t.symbol, "0x1714");
	target_spec_free(&t);
	/* A symbol keeps the symbol form. */
	assert_int_equal(target_spec_parse("./app:_0x10", &t, err, sizeof(err)), 0);
	assert_false(t.at_file_offset);
	target_spec_free(&t);
	assert_int_equal(target_spec_parse("./app:0x10+4", &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "takes no +OFF"));
	assert_int_equal(target_spec_parse("./app:0x10g", &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a number"));
	assert_int_equal(target_spec_parse("./app:0x1ffffffffffffffff", &t, err, sizeof(err)),
			 -EINVAL);
	/* Kernel functions have no file offsets: a number stays a (refused later) name. */
	assert_int_equal(target_spec_parse_kernel("0x10", &t, err, sizeof(err)), 0);
	assert_false(t.at_file_offset);
	target_spec_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memcpy_like_defaults),
		cmocka_unit_test(clear_like_and_registers),
		cmocka_unit_test(malformed),
		cmocka_unit_test(kernel_form),
		cmocka_unit_test(register_names),
		cmocka_unit_test(file_offset_form),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
