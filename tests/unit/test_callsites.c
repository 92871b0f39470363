// SPDX-License-Identifier: GPL-2.0
/* test_callsites.c: copy-family call sites in assembled code, by address and by .ko relocation */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include "sites/callsites.h"

#define BASE 0xffffffff81100000ull

/*
 * `as` output (objcopy -O binary) of this function, with the targets placed after it:
 *	f:	endbr64
 *		mov %rbx, %rdx
 *	+0x07	call t_memcpy		BASE+0x100: __memcpy (alias memcpy)
 *		mov %rax, %rcx
 *	+0x0f	call t_rep_movs		BASE+0x140: rep_movs_alternative
 *	+0x14	call t_thunk		BASE+0x150: __x86_indirect_thunk_rax, not a target
 *	+0x19	call t_pfx_memmove	BASE+0x110: __pfx___memmove, the padding before __memmove
 *	+0x1e	call t_mid		BASE+0x108: inside __memcpy, not an entry
 *	+0x23	rep movsb
 *	+0x25	rep stosq
 *		test %eax, %eax
 *	+0x2a	jne t_memset		BASE+0x130: __memset, a conditional tail call
 *	+0x30	jmp t_ret		BASE+0x160: __x86_return_thunk, not a target
 */
static const uint8_t code[] = {
	0xf3, 0x0f, 0x1e, 0xfa, 0x48, 0x89, 0xda, 0xe8, 0xf4, 0x00, 0x00, 0x00, 0x48, 0x89,
	0xc1, 0xe8, 0x2c, 0x01, 0x00, 0x00, 0xe8, 0x37, 0x01, 0x00, 0x00, 0xe8, 0xf2, 0x00,
	0x00, 0x00, 0xe8, 0xe5, 0x00, 0x00, 0x00, 0xf3, 0xa4, 0xf3, 0x48, 0xab, 0x85, 0xc0,
	0x0f, 0x85, 0x00, 0x01, 0x00, 0x00, 0xe9, 0x2b, 0x01, 0x00, 0x00,
};

static const char kallsyms_text[] = "ffffffff81000000 T _text\n"
				    "ffffffff81100000 T f\n"
				    "ffffffff81100100 T __memcpy\n"
				    "ffffffff81100100 W memcpy\n"
				    "ffffffff81100110 t __pfx___memmove\n"
				    "ffffffff81100120 T __memmove\n"
				    "ffffffff81100130 T __memset\n"
				    "ffffffff81100140 T rep_movs_alternative\n"
				    "ffffffff81100150 T __x86_indirect_thunk_rax\n"
				    "ffffffff81100160 T __x86_return_thunk\n"
				    "ffffffff81100170 T __noinstr_text_start\n"
				    "ffffffff81100170 t memcpy_orig\n"
				    "ffffffff81100200 T __noinstr_text_end\n"
				    "ffffffff81100300 t read_zero\n"
				    "ffffffff81100400 t notrace_fn\n"
				    "ffffffffc0000000 t f\t[mod]\n";

static struct ksyms *load(void)
{
	FILE *f = fmemopen((void *)kallsyms_text, strlen(kallsyms_text), "r");
	struct ksyms *ks = ksyms_parse(f, "test");

	fclose(f);
	assert_non_null(ks);
	return ks;
}

static void finds_calls_by_address(void **state)
{
	struct ksyms *ks = load();
	struct callsite_list l = { .func_addr = BASE };
	struct callsite_opts o = { .include_inline = true };
	struct code_blob b = { code, sizeof(code), BASE };

	assert_int_equal(callsites_scan(ks, &b, &o, &l), 0);
	assert_int_equal(l.undecodable, 0);
	assert_int_equal(l.nr, 6);
	assert_int_equal(l.v[0].offset, 0x07);
	assert_int_equal(l.v[0].addr, BASE + 0x07);
	assert_string_equal(l.v[0].target, "__memcpy");
	assert_string_equal(copy_family_name(l.v[0].family), "memcpy");
	assert_string_equal(l.v[0].len_reg, "rdx");
	assert_string_equal(l.v[0].mnemonic, "call");
	assert_non_null(strstr(l.v[0].context, "mov rdx, rbx"));
	assert_int_equal(l.v[1].offset, 0x0f);
	assert_string_equal(l.v[1].target, "rep_movs_alternative");
	assert_string_equal(l.v[1].len_reg, "rcx");
	assert_int_equal(l.v[2].offset, 0x19);
	assert_string_equal(l.v[2].target, "__memmove"); /* through its __pfx_ padding */
	assert_int_equal(l.v[3].offset, 0x23);
	assert_null(l.v[3].target);
	assert_string_equal(copy_family_name(l.v[3].family), "movs");
	assert_int_equal(l.v[3].len_scale, 1);
	assert_int_equal(l.v[4].offset, 0x25);
	assert_string_equal(copy_family_name(l.v[4].family), "stos");
	assert_int_equal(l.v[4].len_scale, 8);
	assert_int_equal(l.v[5].offset, 0x2a);
	assert_string_equal(l.v[5].target, "__memset");
	assert_string_equal(l.v[5].mnemonic, "jne");
	for (size_t i = 0; i < l.nr; i++) {
		free(l.v[i].target);
		free(l.v[i].context);
	}
	free(l.v);
	ksyms_free(ks);
}

static void inline_ops_only_when_asked(void **state)
{
	struct ksyms *ks = load();
	struct callsite_list l = { .func_addr = BASE };
	struct code_blob b = { code, sizeof(code), BASE };
	size_t i;

	assert_int_equal(callsites_scan(ks, &b, NULL, &l), 0);
	assert_int_equal(l.nr, 4);
	for (i = 0; i < l.nr; i++) {
		assert_non_null(l.v[i].target);
		free(l.v[i].target);
		free(l.v[i].context);
	}
	free(l.v);
	ksyms_free(ks);
}

/* A .ko: call fields are zero and the target is the relocation's symbol. */
static void finds_calls_by_relocation(void **state)
{
	static const uint8_t ko[] = {
		0xe8, 0x00, 0x00, 0x00, 0x00, /* call memcpy (R_X86_64_PLT32) */
		0xe8, 0x00, 0x00, 0x00, 0x00, /* call helper (local) */
		0xe8, 0x00, 0x00, 0x00, 0x00, /* call memmove, unknown to this kallsyms */
		0xe9, 0x00, 0x00, 0x00, 0x00, /* jmp __x86_return_thunk */
	};
	struct kmod_reloc relocs[] = {
		{ 1, R_X86_64_PLT32, -4, "memcpy" },
		{ 6, R_X86_64_PLT32, -4, ".text.unlikely" },
		{ 11, R_X86_64_PC32, -4, "memmove" },
		{ 16, R_X86_64_PLT32, -4, "__x86_return_thunk" },
	};
	struct ksyms *ks = load();
	struct callsite_list l = { 0 }; /* module not loaded: no addresses */
	struct code_blob b = { ko, sizeof(ko), 0, true, relocs, 4 };

	assert_int_equal(callsites_scan(ks, &b, NULL, &l), 0);
	assert_int_equal(l.nr, 2);
	assert_int_equal(l.v[0].offset, 0);
	assert_int_equal(l.v[0].addr, 0);
	assert_string_equal(l.v[0].target, "__memcpy"); /* canonical name via kallsyms */
	assert_int_equal(l.v[1].offset, 10);
	assert_string_equal(l.v[1].target, "memmove");
	assert_string_equal(copy_family_name(l.v[1].family), "memmove");
	free(l.v[0].target);
	free(l.v[0].context);
	free(l.v[1].target);
	free(l.v[1].context);
	free(l.v);
	ksyms_free(ks);
}

static void target_table(void **state)
{
	assert_string_equal(copy_target_lookup("rep_stos_alternative")->len_reg, "rcx");
	assert_string_equal(copy_target_lookup("clear_user_erms")->len_reg, "rcx");
	assert_string_equal(copy_target_lookup("copy_user_enhanced_fast_string")->len_reg, "rdx");
	assert_string_equal(copy_family_name(copy_target_lookup("__pi_memcpy")->family), "memcpy");
	assert_null(copy_target_lookup("__x86_indirect_thunk_rax"));
	assert_null(copy_target_lookup("copy_user_highpage"));
}

static void entry_info_reasons(void **state)
{
	char aff[] = "/tmp/copyprof-test-aff.XXXXXX", bl[] = "/tmp/copyprof-test-bl.XXXXXX";
	struct ksyms *ks = load();
	struct entry_paths p = { aff, bl };
	struct entry_info e;
	FILE *f;

	f = fdopen(mkstemp(aff), "w");
	fputs("read_zero\nf [mod]\n", f);
	fclose(f);
	f = fdopen(mkstemp(bl), "w");
	fputs("0xffffffff81100100-0xffffffff81100110\t__memcpy\n", f);
	fclose(f);

	assert_int_equal(callsites_entry_info(ks, "read_zero", &p, &e), 0);
	assert_int_equal(e.probeable, TS_YES);
	assert_int_equal(e.noinstr, TS_NO);
	assert_null(e.reason);
	entry_info_free(&e);

	callsites_entry_info(ks, "memcpy_orig", &p, &e);
	assert_int_equal(e.noinstr, TS_YES);
	assert_int_equal(e.probeable, TS_NO);
	assert_non_null(strstr(e.reason, "noinstr"));
	entry_info_free(&e);

	callsites_entry_info(ks, "memcpy", &p, &e); /* by address range */
	assert_int_equal(e.blacklisted, TS_YES);
	entry_info_free(&e);

	callsites_entry_info(ks, "notrace_fn", &p, &e);
	assert_int_equal(e.traceable, TS_NO);
	assert_non_null(strstr(e.reason, "available_filter_functions"));
	entry_info_free(&e);

	assert_int_equal(callsites_entry_info(ks, "nosuch", &p, &e), -ENOENT);
	assert_false(e.found);
	entry_info_free(&e);

	p.filter_functions = "/nonexistent";
	callsites_entry_info(ks, "read_zero", &p, &e);
	assert_int_equal(e.probeable, TS_UNKNOWN);
	entry_info_free(&e);
	unlink(aff);
	unlink(bl);
	ksyms_free(ks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_calls_by_address),
		cmocka_unit_test(inline_ops_only_when_asked),
		cmocka_unit_test(finds_calls_by_relocation),
		cmocka_unit_test(target_table),
		cmocka_unit_test(entry_info_reasons),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
