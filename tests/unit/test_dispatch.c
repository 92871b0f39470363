// SPDX-License-Identifier: GPL-2.0
/* test_dispatch.c: the kernel version x CPU flags table of memcpy/memmove/clear_user/copy_user */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "sites/dispatch.h"

#define BASE 0xffffffff81000000ull

/* Load kallsyms text for the live-decoding tests. */
static struct ksyms *load(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct ksyms *ks = ksyms_parse(f, "test");

	fclose(f);
	assert_non_null(ks);
	return ks;
}

static const struct dispatch_cpu cooper_lake = { .erms = true, .rep_good = true };
static const struct dispatch_cpu ice_lake = { .erms = true, .fsrm = true, .rep_good = true };
static const struct dispatch_cpu sapphire = {
	.erms = true, .fsrm = true, .fsrs = true, .rep_good = true
};
static const struct dispatch_cpu zen2 = { .rep_good = true };

static void assert_row(const struct dispatch_entry *e, size_t i, uint64_t min, uint64_t max,
		       const char *code, const char *op)
{
	assert_true(i < e->nr_rows);
	assert_int_equal(e->rows[i].min, min);
	assert_int_equal(e->rows[i].max, max);
	assert_string_equal(e->rows[i].code, code);
	if (op)
		assert_string_equal(e->rows[i].string_op, op);
	else
		assert_null(e->rows[i].string_op);
}

static void v6_12_erms_without_fsrm(void **state)
{
	struct dispatch d = { 0 };

	dispatch_from_table(6, 12, &cooper_lake, &d);
	assert_string_equal(d.e[CF_MEMCPY].source, "table");
	assert_int_equal(d.e[CF_MEMCPY].nr_rows, 1);
	assert_row(&d.e[CF_MEMCPY], 0, 0, DISPATCH_NO_MAX, "memcpy_orig", NULL);
	assert_row(&d.e[CF_MEMMOVE], 0, 0, 31, "__memmove tail code", NULL);
	assert_row(&d.e[CF_MEMMOVE], 1, 32, DISPATCH_NO_MAX, "__memmove (inline)", "rep movsb");
	assert_row(&d.e[CF_MEMSET], 0, 0, DISPATCH_NO_MAX, "memset_orig", NULL);
	assert_row(&d.e[CF_CLEAR_USER], 2, 64, DISPATCH_NO_MAX,
		   "rep_stos_alternative 64-byte movq loop", NULL);
	assert_row(&d.e[CF_COPY_USER], 1, 8, 63, "rep_movs_alternative 8-byte loop", NULL);
	assert_row(&d.e[CF_COPY_USER], 2, 64, DISPATCH_NO_MAX, "rep_movs_alternative", "rep movsb");
	dispatch_free(&d);
}

static void v6_12_fsrm(void **state)
{
	struct dispatch d = { 0 };

	dispatch_from_table(6, 12, &ice_lake, &d);
	assert_row(&d.e[CF_MEMCPY], 0, 0, DISPATCH_NO_MAX, "__memcpy (inline)", "rep movsb");
	assert_row(&d.e[CF_MEMMOVE], 0, 0, DISPATCH_NO_MAX, "__memmove (inline)", "rep movsb");
	/* Ice Lake has FSRM but no FSRS: memset and clear_user stay loop code. */
	assert_row(&d.e[CF_MEMSET], 0, 0, DISPATCH_NO_MAX, "memset_orig", NULL);
	assert_string_equal(d.e[CF_CLEAR_USER].rows[0].code, "rep_stos_alternative byte loop");
	assert_row(&d.e[CF_COPY_USER], 0, 0, DISPATCH_NO_MAX, "copy_user_generic (inline)",
		   "rep movsb");
	dispatch_free(&d);
	dispatch_from_table(6, 12, &sapphire, &d);
	assert_row(&d.e[CF_MEMSET], 0, 0, DISPATCH_NO_MAX, "__memset (inline)", "rep stosb");
	assert_row(&d.e[CF_CLEAR_USER], 0, 0, DISPATCH_NO_MAX, "clear_user (inline)", "rep stosb");
	dispatch_free(&d);
}

static void v6_1(void **state)
{
	struct dispatch d = { 0 };

	dispatch_from_table(6, 1, &cooper_lake, &d);
	assert_row(&d.e[CF_MEMCPY], 0, 0, DISPATCH_NO_MAX, "memcpy_erms", "rep movsb");
	assert_row(&d.e[CF_MEMSET], 0, 0, DISPATCH_NO_MAX, "memset_erms", "rep stosb");
	assert_row(&d.e[CF_CLEAR_USER], 0, 0, 63, "clear_user_original (from clear_user_erms)",
		   NULL);
	assert_row(&d.e[CF_CLEAR_USER], 1, 64, DISPATCH_NO_MAX, "clear_user_erms", "rep stosb");
	assert_row(&d.e[CF_COPY_USER], 0, 0, 63, "copy_user_enhanced_fast_string 8-byte loop",
		   NULL);
	dispatch_free(&d);
	/* FSRM: clear_user is rep stosb inline; the <64 check of copy_user is patched out. */
	dispatch_from_table(6, 1, &ice_lake, &d);
	assert_row(&d.e[CF_CLEAR_USER], 0, 0, DISPATCH_NO_MAX, "clear_user (inline)", "rep stosb");
	assert_row(&d.e[CF_COPY_USER], 0, 0, DISPATCH_NO_MAX, "copy_user_enhanced_fast_string",
		   "rep movsb");
	dispatch_free(&d);
	/* REP_GOOD without ERMS (Zen 2): movsq + movsb inline. */
	dispatch_from_table(6, 1, &zen2, &d);
	assert_row(&d.e[CF_MEMCPY], 0, 0, DISPATCH_NO_MAX, "__memcpy (inline)",
		   "rep movsq + rep movsb");
	assert_row(&d.e[CF_MEMMOVE], 1, 32, DISPATCH_NO_MAX, "__memmove 32-byte loop", NULL);
	assert_string_equal(d.e[CF_CLEAR_USER].rows[1].code, "clear_user_rep_good");
	assert_string_equal(d.e[CF_COPY_USER].rows[1].code, "copy_user_generic_string");
	dispatch_free(&d);
}

static void old_kernels(void **state)
{
	struct dispatch d = { 0 };
	const struct dispatch_cpu none = { 0 };

	dispatch_from_table(5, 10, &none, &d);
	assert_row(&d.e[CF_MEMCPY], 0, 0, DISPATCH_NO_MAX, "memcpy_orig", NULL);
	assert_row(&d.e[CF_CLEAR_USER], 0, 0, DISPATCH_NO_MAX, "__clear_user C movq loop", NULL);
	assert_row(&d.e[CF_COPY_USER], 0, 0, DISPATCH_NO_MAX,
		   "copy_user_generic_unrolled 64-byte loop", NULL);
	dispatch_free(&d);
	/* 6.4/6.5 without ERMS: rep_movs_alternative's large copies are an unrolled loop. */
	dispatch_from_table(6, 5, &zen2, &d);
	assert_row(&d.e[CF_COPY_USER], 2, 64, DISPATCH_NO_MAX,
		   "rep_movs_alternative 64-byte unrolled loop", NULL);
	dispatch_free(&d);
	dispatch_from_table(6, 6, &zen2, &d);
	assert_row(&d.e[CF_COPY_USER], 2, 64, DISPATCH_NO_MAX, "rep_movs_alternative",
		   "rep movsq + bytes");
	dispatch_free(&d);
	/* The destination aligned before rep movsq: 6.15 (b5322b6ec06a), 6.12 from 6.12.23. */
	dispatch_from_table(6, 12, &zen2, &d);
	assert_row(&d.e[CF_COPY_USER], 2, 64, DISPATCH_NO_MAX,
		   "rep_movs_alternative (destination aligned first from 6.12.23)",
		   "rep movsq + bytes");
	dispatch_free(&d);
	dispatch_from_table(6, 15, &zen2, &d);
	assert_row(&d.e[CF_COPY_USER], 2, 64, DISPATCH_NO_MAX,
		   "rep_movs_alternative, destination aligned first", "rep movsq + bytes");
	dispatch_free(&d);
}

static void flags_and_release(void **state)
{
	char *flags[] = { "erms", "fsrm", "rep_good" };
	struct host_meta m = { .cpu_flags = flags, .nr_cpu_flags = 3 };
	struct dispatch_cpu cpu;
	int major, minor;

	assert_true(dispatch_parse_release("6.12.117+deb12-amd64", &major, &minor));
	assert_int_equal(major, 6);
	assert_int_equal(minor, 12);
	assert_false(dispatch_parse_release("linux", &major, &minor));
	m.machine.known = true;
	m.machine.vendor = ASMREF_VENDOR_INTEL;
	dispatch_cpu_from_meta(&m, 6, 12, &cpu);
	assert_true(cpu.erms && cpu.fsrm && cpu.rep_good);
	assert_false(cpu.fsrs);
	/* e046fe5a36a9: on AMD, FSRM implies FSRS from 6.4; Hygon counts as AMD. */
	m.machine.vendor = asmref_cpu_vendor_of("HygonGenuine");
	dispatch_cpu_from_meta(&m, 6, 12, &cpu);
	assert_true(cpu.fsrs);
	dispatch_cpu_from_meta(&m, 6, 1, &cpu);
	assert_false(cpu.fsrs);
	/* A file without the machine block: the model name decides. */
	m.machine.known = false;
	m.cpu_model = "AMD EPYC 9B45";
	dispatch_cpu_from_meta(&m, 6, 12, &cpu);
	assert_true(cpu.fsrs);
	m.cpu_model = "Intel(R) Xeon(R) Processor";
	dispatch_cpu_from_meta(&m, 6, 12, &cpu);
	assert_false(cpu.fsrs);
}

/*
 * Patched text as /proc/kcore shows it on a 6.12 kernel with FSRM and FSRS (`as` output):
 *	0x00 __memcpy:	endbr64; nopl 0(%rax,%rax) (the jmp memcpy_orig, patched out);
 *			mov %rdi,%rax; mov %rdx,%rcx; rep movsb; ret
 *	0x20 __memmove:	mov %rdi,%rax; cmp %rdi,%rsi; jge 1f; mov %rsi,%r8; add %rdx,%r8;
 *			cmp %rdi,%r8; jg 2f; 1: mov %rdx,%rcx; rep movsb; ret; 2: dec %rdx; jnz 2b; ret
 *	0x60 __memset:	endbr64; jmp memset_orig		0x70 memset_orig: ret
 *	0x80 read_zero:	push %rbx; mov %rdx,%rcx; xor %eax,%eax; rep stosb; pop %rbx; ret
 *	0xa0 _copy_to_user: mov %rdx,%rcx; rep movsb; ret
 */
static const uint8_t text_fsrm[0xc0] = {
	0xf3,	       0x0f,	      0x1e,	     0xfa, 0x0f, 0x1f, 0x44, 0x00,
	0x00,	       0x48,	      0x89,	     0xf8, 0x48, 0x89, 0xd1, 0xf3,
	0xa4,	       0xc3,	      [0x20] = 0x48, 0x89, 0xf8, 0x48, 0x39, 0xfe,
	0x7d,	       0x0b,	      0x49,	     0x89, 0xf0, 0x49, 0x01, 0xd0,
	0x49,	       0x39,	      0xf8,	     0x7f, 0x06, 0x48, 0x89, 0xd1,
	0xf3,	       0xa4,	      0xc3,	     0x48, 0xff, 0xca, 0x75, 0xfb,
	0xc3,	       [0x60] = 0xf3, 0x0f,	     0x1e, 0xfa, 0xeb, 0x0a, [0x70] = 0xc3,
	[0x80] = 0x53, 0x48,	      0x89,	     0xd1, 0x31, 0xc0, 0xf3, 0xaa,
	0x5b,	       0xc3,	      [0xa0] = 0x48, 0x89, 0xd1, 0xf3, 0xa4, 0xc3,
};

static const char syms_fsrm[] = "ffffffff81000000 T __memcpy\n"
				"ffffffff81000000 W memcpy\n"
				"ffffffff81000020 T __memmove\n"
				"ffffffff81000060 T __memset\n"
				"ffffffff81000070 t memset_orig\n"
				"ffffffff81000080 t read_zero\n"
				"ffffffff810000a0 T _copy_to_user\n"
				"ffffffff810000c0 T _etext\n";

/*
 * A 6.1 kernel on a REP_GOOD CPU for memcpy, ERMS without FSRM for memmove and clear_user:
 *	0x00 __memcpy:	mov %rdi,%rax; mov %rdx,%rcx; shr $3,%rcx; and $7,%edx; rep movsq;
 *			mov %edx,%ecx; rep movsb; ret
 *	0x20 __memmove:	mov %rdi,%rax; cmp %rdi,%rsi; jge 1f; jmp 2f; 1: cmp $0x20,%rdx; jb 2f;
 *			jmp 3f; 2: dec %rdx; jnz 2b; ret; 3: mov %rdx,%rcx; rep movsb; ret
 *	0x60 read_zero:	mov %rdx,%rcx; call clear_user_erms; ret	0x70 clear_user_erms: ret
 */
static const uint8_t text_61[0x80] = {
	0x48, 0x89, 0xf8, 0x48, 0x89, 0xd1,	     0x48, 0xc1,	  0xe9, 0x03, 0x83,
	0xe2, 0x07, 0xf3, 0x48, 0xa5, 0x89,	     0xd1, 0xf3,	  0xa4, 0xc3, [0x20] = 0x48,
	0x89, 0xf8, 0x48, 0x39, 0xfe, 0x7d,	     0x02, 0xeb,	  0x08, 0x48, 0x83,
	0xfa, 0x20, 0x72, 0x02, 0xeb, 0x06,	     0x48, 0xff,	  0xca, 0x75, 0xfb,
	0xc3, 0x48, 0x89, 0xd1, 0xf3, 0xa4,	     0xc3, [0x60] = 0x48, 0x89, 0xd1, 0xe8,
	0x08, 0x00, 0x00, 0x00, 0xc3, [0x70] = 0xc3,
};

static const char syms_61[] = "ffffffff81000000 T __memcpy\n"
			      "ffffffff81000020 T __memmove\n"
			      "ffffffff81000060 t read_zero\n"
			      "ffffffff81000070 T clear_user_erms\n"
			      "ffffffff81000080 T _etext\n";

static void live_fsrm(void **state)
{
	char *flags[] = { "erms", "fsrm", "rep_good" };
	struct host_meta m = { .cpu_flags = flags, .nr_cpu_flags = 3 };
	struct kimage *ki = kimage_open_buffer(BASE, text_fsrm, sizeof(text_fsrm));
	struct ksyms *ks = load(syms_fsrm);
	struct dispatch d = { 0 };

	dispatch_probe(ks, ki, "6.12.0", &m, &d);
	assert_string_equal(d.e[CF_MEMCPY].source, "buffer");
	assert_string_equal(d.e[CF_MEMCPY].read_at, "__memcpy");
	assert_row(&d.e[CF_MEMCPY], 0, 0, DISPATCH_NO_MAX, "__memcpy (inline)", "rep movsb");
	assert_int_equal(d.e[CF_MEMMOVE].nr_rows, 1);
	assert_row(&d.e[CF_MEMMOVE], 0, 0, DISPATCH_NO_MAX, "__memmove (inline)", "rep movsb");
	/* The text wins over the flags: no FSRS in the table, but memset jumps out anyway. */
	assert_string_equal(d.e[CF_MEMSET].source, "buffer");
	assert_row(&d.e[CF_MEMSET], 0, 0, DISPATCH_NO_MAX, "memset_orig", NULL);
	assert_string_equal(d.e[CF_CLEAR_USER].source, "buffer");
	assert_string_equal(d.e[CF_CLEAR_USER].read_at, "read_zero+0x6");
	assert_row(&d.e[CF_CLEAR_USER], 0, 0, DISPATCH_NO_MAX, "clear_user (inline)", "rep stosb");
	assert_row(&d.e[CF_COPY_USER], 0, 0, DISPATCH_NO_MAX, "copy_user_generic (inline)",
		   "rep movsb");
	dispatch_free(&d);
	kimage_close(ki);
	ksyms_free(ks);
}

static void live_61_rep_good(void **state)
{
	char *flags[] = { "erms", "rep_good" };
	struct host_meta m = { .cpu_flags = flags, .nr_cpu_flags = 2 };
	struct kimage *ki = kimage_open_buffer(BASE, text_61, sizeof(text_61));
	struct ksyms *ks = load(syms_61);
	struct dispatch d = { 0 };

	dispatch_probe(ks, ki, "6.1.0-57-amd64", &m, &d);
	assert_row(&d.e[CF_MEMCPY], 0, 0, DISPATCH_NO_MAX, "__memcpy (inline)",
		   "rep movsq + rep movsb");
	assert_row(&d.e[CF_MEMMOVE], 0, 0, 31, "__memmove tail code", NULL);
	assert_row(&d.e[CF_MEMMOVE], 1, 32, DISPATCH_NO_MAX, "__memmove (inline)", "rep movsb");
	assert_row(&d.e[CF_CLEAR_USER], 1, 64, DISPATCH_NO_MAX, "clear_user_erms", "rep stosb");
	assert_non_null(strstr(d.e[CF_CLEAR_USER].decoded, "call clear_user_erms"));
	/* Nothing to decode: __memset and _copy_to_user are missing, so the table answers. */
	assert_string_equal(d.e[CF_MEMSET].source, "table");
	assert_row(&d.e[CF_MEMSET], 0, 0, DISPATCH_NO_MAX, "memset_erms", "rep stosb");
	assert_string_equal(d.e[CF_COPY_USER].source, "table");
	dispatch_free(&d);
	kimage_close(ki);
	ksyms_free(ks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v6_12_erms_without_fsrm),
		cmocka_unit_test(v6_12_fsrm),
		cmocka_unit_test(v6_1),
		cmocka_unit_test(old_kernels),
		cmocka_unit_test(flags_and_release),
		cmocka_unit_test(live_fsrm),
		cmocka_unit_test(live_61_rep_good),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
