// SPDX-License-Identifier: GPL-2.0
/* test_copy_family.c: the one family table, a probe's family, and a profile site's family on disk */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate/estimate_family.h"
#include "lib/regs.h"
#include "profile/profile.h"
#include "profile/profile_family.h"
#include "sites/copy_family.h"

#define TESTDIR_NAME "family"
#include "testdir.h"

/* Every name parses back to its family; anything else is CF_NONE. */
static void names_round_trip(void **state)
{
	static const char *const want[CF_NR] = { "memcpy",     "memmove",   "memset",
						 "clear_user", "copy_user", "movs",
						 "stos",       "leaf",	    "function" };
	int f;

	for (f = 0; f < CF_NR; f++) {
		assert_string_equal(copy_family_name((enum copy_family)f), want[f]);
		assert_int_equal(copy_family_parse(want[f]), f);
	}
	assert_null(copy_family_name(CF_NONE));
	assert_null(copy_family_name(CF_NR));
	assert_int_equal(copy_family_parse("rep_movs"), CF_NONE);
	assert_int_equal(copy_family_parse(""), CF_NONE);
	assert_int_equal(copy_family_parse(NULL), CF_NONE);
	/* The dispatch's routines are the first five, in its order. */
	assert_int_equal(CF_NR_ROUTINES, 5);
	assert_string_equal(copy_family_name(CF_COPY_USER), "copy_user");
}

/* A probe's family: the routine's when it is one, else the length rule. */
static void probe_family(void **state)
{
	assert_int_equal(copy_family_of_probe("__memmove", CP_REG_RDX), CF_MEMMOVE);
	assert_int_equal(copy_family_of_probe("rep_stos_alternative", CP_REG_RCX), CF_CLEAR_USER);
	assert_int_equal(copy_family_of_probe("__clear_user", CP_REG_ARG1), CF_CLEAR_USER);
	assert_int_equal(copy_family_of_probe("copy_user_generic_string", CP_REG_RDX),
			 CF_COPY_USER);
	assert_int_equal(copy_family_of_probe("memset_orig", CP_REG_ARG2), CF_MEMSET);
	/* glibc's names, for uprobes. */
	assert_int_equal(copy_family_of_probe("__memmove_avx_unaligned_erms", CP_REG_ARG2),
			 CF_MEMMOVE);
	assert_int_equal(copy_family_of_probe("__memset_avx2_unaligned_erms", CP_REG_ARG2),
			 CF_MEMSET);
	assert_int_equal(copy_family_of_probe("__mempcpy_chk", CP_REG_ARG2), CF_MEMCPY);
	assert_int_equal(copy_family_of_probe("memset", CP_REG_ARG2), CF_MEMSET);
	/* Any other function: memcpy-like, or clear_user-like with the length in arg1 (the second argument). */
	assert_int_equal(copy_family_of_probe("wl_copy", CP_REG_ARG2), CF_MEMCPY);
	assert_int_equal(copy_family_of_probe("wl_clear", CP_REG_ARG1), CF_CLEAR_USER);
	assert_int_equal(copy_family_of_probe("read_zero", CP_REG_ARG2), CF_MEMCPY);
	/* No guess from the name: a function that merely mentions one is memcpy-like. */
	assert_int_equal(copy_family_of_probe("my_memset_wrapper", CP_REG_ARG2), CF_MEMCPY);
	assert_int_equal(copy_family_of_probe("copy_user_highpage", CP_REG_ARG2), CF_MEMCPY);
	/* A call target keeps its family too, and an inline op has its own. */
	assert_int_equal(copy_target_lookup("rep_movs_alternative")->family, CF_COPY_USER);
	assert_int_equal(copy_family_inline_family(true), CF_MOVS);
	assert_int_equal(copy_family_inline_family(false), CF_STOS);
}

/* The rule older profiles are read with: what estimate used to infer. */
static void legacy_inference(void **state)
{
	struct profile_site s = { .symbol = "__memmove_avx_unaligned_erms", .len_arg = "arg2" };

	assert_int_equal(profile_family_infer(&s), CF_MEMMOVE);
	s.symbol = "my_memset_wrapper";
	assert_int_equal(profile_family_infer(&s), CF_MEMSET);
	s.symbol = "rep_stos_alternative";
	assert_int_equal(profile_family_infer(&s), CF_CLEAR_USER);
	s.symbol = "app_clear";
	s.len_arg = "arg1";
	assert_int_equal(profile_family_infer(&s), CF_CLEAR_USER);
	s.symbol = "ZSTD_decompressStream";
	s.len_arg = "rdx";
	assert_int_equal(profile_family_infer(&s), CF_MEMCPY);
	s.symbol = NULL;
	s.len_arg = NULL;
	assert_int_equal(profile_family_infer(&s), CF_MEMCPY);
}

/* What estimate costs each family as. */
static void costed_as(void **state)
{
	static const struct {
		enum copy_family f;
		enum copy_family e;
	} rows[] = {
		{ CF_MEMCPY, CF_MEMCPY },    { CF_MEMMOVE, CF_MEMMOVE },
		{ CF_MEMSET, CF_MEMSET },    { CF_CLEAR_USER, CF_CLEAR_USER },
		{ CF_COPY_USER, CF_MEMCPY }, { CF_MOVS, CF_MEMCPY },
		{ CF_STOS, CF_MEMSET },	     { CF_LEAF, CF_MEMCPY },
		{ CF_FUNCTION, CF_MEMCPY },  { CF_NONE, CF_MEMCPY },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct profile_site s = { .family = rows[i].f, .symbol = "memmove_like" };

		assert_int_equal(est_site_family(&s), rows[i].e);
	}
	assert_string_equal(est_family(CF_CLEAR_USER)->name, "clear_user");
	assert_int_equal(est_family_parse("memset"), CF_MEMSET);
	assert_int_equal(est_family_parse("copy_user"), -1);
}

/* Written for every site; read back; inferred once for a site written without it. */
static void on_disk(void **state)
{
	struct profile *p = profile_new(), *q = NULL;
	struct profile_site *s = profile_add_site(p);
	FILE *f;
	char line[256];
	int seen = 0;

	assert_int_equal(s->family, CF_NONE);
	s->target = strdup("vmlinux");
	s->symbol = strdup("read_iter_zero");
	s->mechanism = strdup("kprobe");
	s->len_arg = strdup("rcx");
	s->family = CF_STOS;
	assert_int_equal(profile_write(p, path_in_dir("f.json")), 0);
	f = fopen(path_in_dir("f.json"), "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		seen += strstr(line, "\"family\": \"stos\"") != NULL;
	fclose(f);
	assert_int_equal(seen, 1);
	assert_int_equal(profile_read(path_in_dir("f.json"), &q), 0);
	assert_int_equal(q->sites[0].family, CF_STOS);
	profile_free(q);
	profile_free(p);

	write_text("old.json",
		   "{\"format\":\"copyprof-profile\",\"version\":1,\"sites\":["
		   "{\"symbol\":\"app_clear\",\"len_arg\":\"arg2\",\"buckets\":[]},"
		   "{\"symbol\":\"x_memmove\",\"len_arg\":\"rdx\",\"buckets\":[]},"
		   "{\"symbol\":\"f\",\"family\":\"strcpy\",\"buckets\":[]},"
		   "{\"symbol\":\"x_memmove\",\"family\":\"copy_user\",\"buckets\":[]}]}");
	assert_int_equal(profile_read(path_in_dir("old.json"), &q), 0);
	assert_int_equal(q->sites[0].family, CF_CLEAR_USER);
	assert_int_equal(q->sites[1].family, CF_MEMMOVE);
	assert_int_equal(q->sites[2].family, CF_MEMCPY);    /* a name this copyprof does not know */
	assert_int_equal(q->sites[3].family, CF_COPY_USER); /* stored: never guessed over */
	profile_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_round_trip), cmocka_unit_test(probe_family),
		cmocka_unit_test(legacy_inference), cmocka_unit_test(costed_as),
		cmocka_unit_test(on_disk),
	};

	return cmocka_run_group_tests(tests, testdir_setup, testdir_teardown);
}
