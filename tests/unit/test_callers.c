// SPDX-License-Identifier: GPL-2.0
/* test_callers.c: a function's direct callers, byte candidates confirmed by decoding */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sites/callers.h"

#define BASE 0xffffffff81000000ull
#define TEXT_LEN 0x240

/*
 * `as` output of this text (objcopy -O binary), zeros elsewhere:
 *	0x000 f1:	endbr64; call tgt (+0x4); nop; call tgt (+0xa);
 *			call __pfx_tgt (+0xf, a call-depth thunk); call other (+0x14); ret
 *	0x040 f2:	movabs $0xb7e80000, %rax	bytes e8 b7 00 00 00 at +0x4 aim at tgt:
 *							a candidate that is no instruction
 *			jmp tgt (+0xa, a tail call)
 *	0x080 f3:	call tgt; ret			not traceable
 *	0x0c0 f4:	call tgt; jne tgt (rel8, +0x5); jne tgt (rel32, +0x7); ret	blacklisted
 *	0x0e0 other:	ret
 *	0x0f0 __pfx_tgt: 16 x nop
 *	0x100 tgt:	ret				alias __memcpy: a copy-family target
 *	0x200 mf [mod]:	nop; call tgt (+0x1); ret	a loaded module's caller
 */
static const struct {
	unsigned int at;
	uint8_t bytes[32];
	unsigned int len;
} text[] = {
	{ 0x000,
	  { 0xf3, 0x0f, 0x1e, 0xfa, 0xe8, 0xf7, 0x00, 0x00, 0x00, 0x90, 0xe8, 0xf1, 0x00,
	    0x00, 0x00, 0xe8, 0xdc, 0x00, 0x00, 0x00, 0xe8, 0xc7, 0x00, 0x00, 0x00, 0xc3 },
	  26 },
	{ 0x040,
	  { 0x48, 0xb8, 0x00, 0x00, 0xe8, 0xb7, 0x00, 0x00, 0x00, 0x00, 0xe9, 0xb1, 0x00, 0x00,
	    0x00 },
	  15 },
	{ 0x080, { 0xe8, 0x7b, 0x00, 0x00, 0x00, 0xc3 }, 6 },
	{ 0x0c0,
	  { 0xe8, 0x3b, 0x00, 0x00, 0x00, 0x75, 0x39, 0x0f, 0x85, 0x33, 0x00, 0x00, 0x00, 0xc3 },
	  14 },
	{ 0x0e0, { 0xc3 }, 1 },
	{ 0x0f0,
	  { 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
	    0x90, 0x90, 0xc3 },
	  17 },
	{ 0x200, { 0x90, 0xe8, 0xfa, 0xfe, 0xff, 0xff, 0xc3 }, 7 },
};

static const char kallsyms_text[] = "ffffffff81000000 T _text\n"
				    "ffffffff81000000 T _stext\n"
				    "ffffffff81000000 T f1\n"
				    "ffffffff81000040 t f2\n"
				    "ffffffff81000080 t f3\n"
				    "ffffffff810000c0 t f4\n"
				    "ffffffff810000e0 t other\n"
				    "ffffffff810000f0 t __pfx_tgt\n"
				    "ffffffff81000100 T tgt\n"
				    "ffffffff81000100 T __memcpy\n"
				    "ffffffff81000110 T _etext\n"
				    "ffffffff81000200 t mf\t[mod]\n"
				    "ffffffff81000240 d mf_data\t[mod]\n";

struct fixture {
	struct ksyms *ks;
	struct kimage *ki;
	char aff[64], bl[64];
	struct entry_paths paths;
};

static void write_file(char *path, const char *text)
{
	FILE *f = fdopen(mkstemp(path), "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	uint8_t buf[TEXT_LEN] = { 0 };
	FILE *f = fmemopen((void *)kallsyms_text, strlen(kallsyms_text), "r");
	size_t i;

	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		memcpy(buf + text[i].at, text[i].bytes, text[i].len);
	fx->ks = ksyms_parse(f, "test");
	fclose(f);
	fx->ki = kimage_open_buffer(BASE, buf, sizeof(buf)); /* live, so modules too */
	strcpy(fx->aff, "/tmp/copyprof-test-aff.XXXXXX");
	strcpy(fx->bl, "/tmp/copyprof-test-bl.XXXXXX");
	write_file(fx->aff, "f1\nf2\nf4\nmf [mod]\n");
	write_file(fx->bl, "0xffffffff810000c0-0xffffffff810000e0\tf4\n");
	fx->paths = (struct entry_paths){ fx->aff, fx->bl };
	*state = fx;
	return fx->ks && fx->ki ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	unlink(fx->aff);
	unlink(fx->bl);
	kimage_close(fx->ki);
	ksyms_free(fx->ks);
	free(fx);
	return 0;
}

static const struct caller *by_name(const struct callers *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->v[i].function, name))
			return &c->v[i];
	return NULL;
}

static void finds_and_confirms(void **state)
{
	struct fixture *fx = *state;
	const struct caller *k;
	struct callers c;
	char *why = NULL;

	assert_int_equal(callers_find(fx->ks, fx->ki, "tgt", &fx->paths, &c, &why), 0);
	assert_null(why);
	assert_true(c.live);
	assert_true(c.modules_searched);
	assert_true(c.copy_family); /* through its alias __memcpy */
	assert_int_equal(c.candidates, 10);
	assert_int_equal(c.not_insns, 1); /* f2's movabs immediate */
	assert_int_equal(c.nr_sites, 9);
	assert_int_equal(c.nr, 5);
	assert_int_equal(c.nr_kprobe, 3);
	assert_null(by_name(&c, "other"));

	/* Kprobe-able first, most sites first, then by name. */
	assert_string_equal(c.v[0].function, "f1");
	assert_string_equal(c.v[1].function, "f2");
	assert_string_equal(c.v[2].function, "mf");
	assert_string_equal(c.v[3].function, "f4");
	assert_string_equal(c.v[4].function, "f3");

	k = &c.v[0];
	assert_int_equal(k->kprobe, TS_YES);
	assert_int_equal(k->nr_sites, 3);
	assert_int_equal(k->sites[0].offset, 0x4);
	assert_int_equal(k->sites[0].addr, BASE + 0x4);
	assert_int_equal(k->sites[1].offset, 0xa);
	assert_int_equal(k->sites[2].offset, 0xf); /* into the __pfx_ padding */
	assert_string_equal(k->sites[0].mnemonic, "call");

	k = &c.v[1];
	assert_int_equal(k->nr_sites, 1);
	assert_int_equal(k->sites[0].offset, 0xa);
	assert_string_equal(k->sites[0].mnemonic, "jmp");

	k = &c.v[2];
	assert_string_equal(k->module, "mod");
	assert_int_equal(k->kprobe, TS_YES);
	assert_int_equal(k->sites[0].offset, 0x1);

	k = &c.v[3];
	assert_int_equal(k->kprobe, TS_NO); /* blacklisted */
	assert_int_equal(k->nr_sites, 3);
	assert_int_equal(k->sites[1].offset, 0x5); /* jne rel8 */
	assert_int_equal(k->sites[2].offset, 0x7); /* jne rel32 */
	assert_int_equal(c.v[4].kprobe, TS_NO);	   /* not traceable */
	callers_free(&c);

	/* An alias is the same function. */
	assert_int_equal(callers_find(fx->ks, fx->ki, "__memcpy", &fx->paths, &c, &why), 0);
	assert_int_equal(c.nr_sites, 9);
	callers_free(&c);

	assert_int_equal(callers_find(fx->ks, fx->ki, "other", &fx->paths, &c, &why), 0);
	assert_int_equal(c.nr, 1);
	assert_false(c.copy_family);
	assert_int_equal(c.v[0].sites[0].offset, 0x14);
	callers_free(&c);
}

static void unknown_without_tracefs(void **state)
{
	struct fixture *fx = *state;
	struct entry_paths none = { "/nonexistent", "/nonexistent" };
	struct callers c;
	char *why = NULL;

	assert_int_equal(callers_find(fx->ks, fx->ki, "tgt", &none, &c, &why), 0);
	assert_int_equal(c.nr_kprobe, 0);
	assert_int_equal(c.v[0].kprobe, TS_UNKNOWN);
	callers_free(&c);

	assert_int_equal(callers_find(fx->ks, fx->ki, "nosuch", &none, &c, &why), -ENOENT);
	assert_non_null(strstr(why, "nosuch"));
	free(why);
	callers_free(&c);
	assert_int_equal(callers_find(fx->ks, NULL, "tgt", &none, &c, &why), -ENOENT);
	assert_non_null(strstr(why, "no kernel text"));
	free(why);
	callers_free(&c);
}

static char *print(const struct callers *c, size_t max, const char *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	callers_print(c, f, "", max, len);
	fclose(f);
	return buf;
}

static void prints_bounded_list_and_hint(void **state)
{
	struct fixture *fx = *state;
	struct callers c;
	char *why = NULL, *out;

	assert_int_equal(callers_find(fx->ks, fx->ki, "tgt", &fx->paths, &c, &why), 0);
	out = print(&c, 2, NULL);
	assert_non_null(strstr(out, "callers of tgt: 9 call sites in 5 functions, 3 kprobe-able"));
	assert_non_null(strstr(out, "10 candidates, 1 not instructions"));
	assert_non_null(strstr(out, "+0x4 +0xa +0xf"));
	assert_non_null(strstr(out, "+0xa(jmp)"));
	assert_null(strstr(out, "mod:mf")); /* the third: beyond the bound */
	assert_non_null(strstr(out, "... 3 more"));
	assert_non_null(strstr(out, "probe one: copyprof record --site f1+0x4\n"));
	free(out);
	callers_free(&c);

	assert_int_equal(callers_find(fx->ks, fx->ki, "other", &fx->paths, &c, &why), 0);
	out = print(&c, 20, "arg2");
	assert_non_null(strstr(out, "callers of other: 1 call site in 1 function, 1 kprobe-able"));
	assert_non_null(strstr(out, "copyprof record --kprobe f1+0x14,len=arg2"));
	free(out);
	callers_free(&c);

	assert_int_equal(callers_find(fx->ks, fx->ki, "f1", &fx->paths, &c, &why), 0);
	out = print(&c, 20, NULL);
	assert_non_null(strstr(out, "callers of f1: no direct call or jump to it"));
	free(out);
	callers_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_and_confirms),
		cmocka_unit_test(unknown_without_tracefs),
		cmocka_unit_test(prints_bounded_list_and_hint),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
