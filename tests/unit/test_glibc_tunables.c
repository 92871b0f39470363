// SPDX-License-Identifier: GPL-2.0
/* test_glibc_tunables.c: ld.so --list-tunables parsed strictly, and the accept rules against ld.so */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/glibc_thresholds.h"
#include "lib/glibc_tunables.h"

static const char sample[] =
	"glibc.rtld.nns: 0x4 (min: 0x1, max: 0x10)\n"
	"glibc.malloc.arena_max: 0x0 (min: 0x1, max: 0xffffffffffffffff)\n"
	"glibc.cpu.x86_rep_movsb_threshold: 0x840 (min: 0x200, max: 0xffffffffffffffff)\n"
	"glibc.cpu.x86_rep_stosb_threshold: 0x800 (min: 0x1, max: 0xffffffffffffffff)\n"
	"glibc.cpu.x86_non_temporal_threshold: 0xf000000 (min: 0x4040, max: 0xfffffffffffffff)\n"
	"glibc.cpu.x86_shstk:\n"
	"glibc.cpu.hwcaps: -AVX512F,Prefer_No_AVX512\n"
	"glibc.pthread.mutex_spin_count: 100 (min: 0, max: 32767)\n";

static void parses_glibc_236(void **state)
{
	struct glibc_tunables t;
	char *why = NULL;

	assert_int_equal(glibc_tunables_parse(sample, strlen(sample), &t, &why), 0);
	assert_null(why);
	assert_int_equal(t.nr_lines, 8);
	assert_true(t.rep_movsb_threshold.present);
	assert_int_equal(t.rep_movsb_threshold.value, 0x840);
	assert_int_equal(t.rep_movsb_threshold.min, 0x200);
	assert_true(t.rep_movsb_threshold.max == UINT64_MAX);
	assert_int_equal(t.rep_stosb_threshold.value, 0x800);
	assert_int_equal(t.non_temporal_threshold.min, 0x4040);
	assert_int_equal(t.non_temporal_threshold.max, 0x0fffffffffffffffull);
	/* 2.36 has no stop-threshold tunable. */
	assert_false(t.rep_movsb_stop_threshold.present);
	assert_false(t.shared_cache_size.present);
}

static void refuses_n(const char *text, size_t len, const char *reason)
{
	struct glibc_tunables t;
	char *why = NULL;

	assert_int_equal(glibc_tunables_parse(text, len, &t, &why), -EINVAL);
	assert_non_null(why);
	if (!strstr(why, reason))
		fail_msg("'%s': reason '%s' lacks '%s'", text, why, reason);
	assert_false(t.rep_movsb_threshold.present);
	free(why);
}

static void refuses(const char *text, const char *reason)
{
	refuses_n(text, strlen(text), reason);
}

static void strict(void **state)
{
	refuses("", "no tunables");
	refuses("glibc.a.b: 1 (min: 0, max: 1)\n\n", "line 2 is empty");
	refuses("x86_rep_movsb_threshold: 1 (min: 0, max: 1)\n", "line 1: not 'glibc.");
	refuses("glibc.cpu: 1 (min: 0, max: 1)\n", "line 1: not 'glibc.");
	refuses("glibc.cpu.x-y: 1 (min: 0, max: 1)\n", "line 1: not 'glibc.");
	refuses("glibc.a.b: 1 (min: 0, max: 1)\nglibc.a.b: 2 (min: 0, max: 3)\n", "listed twice");
	refuses("glibc.a.b: 1 (min: 0, max: 0x10000000000000000)\n", "not 'VALUE (min");
	refuses("glibc.a.b: 18446744073709551616 (min: 0, max: 1)\n", "no number");
	refuses("glibc.a.b: 1 (min: 0, max: 1) \n", "not 'VALUE (min");
	refuses("glibc.a.b: 1 (min: 0,max: 1)\n", "not 'VALUE (min");
	refuses("glibc.a.b: 1 (min: 5, max: 1)\n", "min above max");
	refuses("glibc.a.b: 0x (min: 0, max: 1)\n", "no number");
	refuses("glibc.cpu.x86_rep_movsb_threshold:\n", "has no numeric value");
	refuses("glibc.cpu.x86_non_temporal_threshold: big\n", "has no numeric value");
	refuses("glibc.a.b: 1 (min: 0, max: 1)\nnot a tunable\n", "line 2");
	refuses_n("glibc.a.b\0: 1\n", 14, "NUL");
	/* The last line may lack its newline; a string value is any text without parentheses. */
	{
		static const char ok[] = "glibc.cpu.hwcaps: -AVX2\nglibc.a.b: 7 (min: 7, max: 7)";
		struct glibc_tunables t;
		char *why = NULL;

		assert_int_equal(glibc_tunables_parse(ok, strlen(ok), &t, &why), 0);
		assert_int_equal(t.nr_lines, 2);
	}
}

/* The real loader: its own list parses, and GLIBC_TUNABLES changes what it says is in force. */
static void real_loader(void **state)
{
	struct glibc_tunables t, u;
	char *why = NULL, *ldso = glibc_tunables_ldso_of("/proc/self/exe", &why);

	assert_non_null(ldso);
	if (access(ldso, X_OK)) {
		print_message("skipped: no %s\n", ldso);
		free(ldso);
		skip();
	}
	assert_int_equal(glibc_tunables_read(ldso, NULL, &t, &why), 0);
	assert_true(t.rep_movsb_threshold.present && t.rep_stosb_threshold.present &&
		    t.non_temporal_threshold.present);
	print_message("%s: x86_rep_movsb_threshold %#llx (min %#llx), non_temporal %#llx, "
		      "stosb %#llx, %zu tunables\n",
		      ldso, (unsigned long long)t.rep_movsb_threshold.value,
		      (unsigned long long)t.rep_movsb_threshold.min,
		      (unsigned long long)t.non_temporal_threshold.value,
		      (unsigned long long)t.rep_stosb_threshold.value, t.nr_lines);
	assert_int_equal(
		glibc_tunables_read(ldso, "glibc.cpu.x86_rep_stosb_threshold=12345", &u, &why), 0);
	assert_int_equal(u.rep_stosb_threshold.value, 12345);
	assert_int_equal(u.rep_movsb_threshold.value, t.rep_movsb_threshold.value);
	/* copyprof's own GLIBC_TUNABLES never leaks into the loader's. */
	setenv("GLIBC_TUNABLES", "glibc.cpu.x86_rep_stosb_threshold=777", 1);
	assert_int_equal(glibc_tunables_read(ldso, NULL, &u, &why), 0);
	assert_int_equal(u.rep_stosb_threshold.value, t.rep_stosb_threshold.value);
	unsetenv("GLIBC_TUNABLES");
	assert_int_equal(glibc_tunables_read("/nonexistent/ld.so", NULL, &u, &why), -ENOENT);
	assert_non_null(strstr(why, "cannot run /nonexistent/ld.so"));
	free(why);
	why = NULL;
	assert_int_equal(glibc_tunables_read("/bin/false", NULL, &u, &why), -EINVAL);
	assert_non_null(strstr(why, "failed"));
	free(why);
	free(ldso);
	assert_null(glibc_tunables_ldso_of("/nonexistent", &why));
	free(why);
}

/* In force with @name=@value? What the loader itself says. */
static bool taken(const char *name, uint64_t value, const struct glibc_tunable **which,
		  struct glibc_tunables *t)
{
	char env[128];
	char *why = NULL;

	snprintf(env, sizeof(env), "glibc.cpu.%s=%#llx", name, (unsigned long long)value);
	assert_int_equal(glibc_tunables_read(NULL, env, t, &why), 0);
	return (*which)->value == value;
}

/* glibc_thresholds_accepts() against the loader, at every edge of every range. */
static void accept_rules_match_the_loader(void **state)
{
	struct glibc_tunables t, probe;
	const struct glibc_tunable *movsb = &probe.rep_movsb_threshold,
				   *nt = &probe.non_temporal_threshold,
				   *stosb = &probe.rep_stosb_threshold;
	char *why = NULL;
	uint64_t edges[6];
	size_t i, k;

	if (glibc_tunables_read(NULL, NULL, &t, &why)) {
		print_message("skipped: %s\n", why);
		free(why);
		skip();
	}
	for (k = 0; k < 3; k++) {
		const struct glibc_tunable *tt = k == 0	  ? &t.rep_movsb_threshold
						 : k == 1 ? &t.non_temporal_threshold
							  : &t.rep_stosb_threshold;
		const struct glibc_tunable **which = k == 0 ? &movsb : k == 1 ? &nt : &stosb;
		const char *name = k == 0   ? "x86_rep_movsb_threshold"
				   : k == 1 ? "x86_non_temporal_threshold"
					    : "x86_rep_stosb_threshold";
		bool strict_min = k < 2;

		edges[0] = tt->min ? tt->min - 1 : 0;
		edges[1] = tt->min;
		edges[2] = tt->min + 1;
		/*
		 * Not max - 1: glibc 2.36's number parser turns anything from 2^64 - 16 up into
		 * 2^64 - 1 (no copy is that long: no difference), which is no accept rule.
		 */
		edges[3] = tt->max - 0x100;
		edges[4] = tt->max;
		edges[5] = tt->max == UINT64_MAX ? tt->max : tt->max + 1;
		for (i = 0; i < 6; i++) {
			bool in_force = taken(name, edges[i], which, &probe);

			/* A value equal to the default is "in force" either way. */
			if (edges[i] == tt->value)
				continue;
			if (in_force != glibc_thresholds_accepts(tt, strict_min, edges[i]))
				fail_msg("%s=%#llx: the loader %s it, the rule says otherwise",
					 name, (unsigned long long)edges[i],
					 in_force ? "takes" : "ignores");
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_glibc_236),
		cmocka_unit_test(strict),
		cmocka_unit_test(real_loader),
		cmocka_unit_test(accept_rules_match_the_loader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
