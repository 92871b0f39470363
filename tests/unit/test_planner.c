// SPDX-License-Identifier: GPL-2.0
/* test_planner.c: the planner's choices on recorded kernel facts (kprobe rules, lockdown, no kcore) */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/regs.h"
#include "record/planner.h"
#include "record/record_plan.h"

/*
 * kallsyms as the 6.18.44 kernel of the development machine shows it (the functions the
 * plans below touch, their __pfx_ paddings and the symbols that end them, the noinstr range).
 */
static const char kallsyms_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81baf960 T __pfx__copy_to_iter\n"
	"ffffffff81baf970 T _copy_to_iter\n"
	"ffffffff81bb0030 T __pfx__copy_from_iter_flushcache\n"
	"ffffffff81d7f750 t __pfx_read_zero\n"
	"ffffffff81d7f760 t read_zero\n"
	"ffffffff81d7f830 t __pfx_read_iter_zero\n"
	"ffffffff81d7f840 t read_iter_zero\n"
	"ffffffff81d7f950 T __pfx_rng_is_initialized\n"
	"ffffffff822563b0 T __pfx_rep_stos_alternative\n"
	"ffffffff822563c0 T rep_stos_alternative\n"
	"ffffffff82256440 t __pfx___cmdline_find_option.part.0.constprop.0\n"
	"ffffffff822569f0 T rep_movs_alternative\n"
	"ffffffff82256a80 T __pfx_copy_to_nontemporal\n"
	"ffffffff8225a930 T __noinstr_text_start\n"
	"ffffffff82261890 T __pfx___memcpy\n"
	"ffffffff82261890 T __pfx_memcpy\n"
	"ffffffff822618a0 T memcpy\n"
	"ffffffff822618a0 T __memcpy\n"
	"ffffffff822618c0 t memcpy_orig\n"
	"ffffffff822619f0 T __pfx___memmove\n"
	"ffffffff82261a00 T memmove\n"
	"ffffffff82261a00 T __memmove\n"
	"ffffffff82262a45 T __noinstr_text_end\n"
	"ffffffff82277288 T _etext\n";

#define TEXT_BASE 0xffffffff81baf000ull /* the kernel text the fixture holds: to memmove */
#define TEXT_LEN 0x6b3000u
#define READ_ZERO 0xffffffff81d7f760ull
#define COPY_TO_ITER 0xffffffff81baf970ull
#define REP_STOS_ALT 0xffffffff822563c0ull
#define REP_MOVS_ALT 0xffffffff822569f0ull
#define MEMCPY 0xffffffff822618a0ull

/* Our own code in the shapes of those functions' copies (no kernel bytes are copied). */
static void put(uint8_t *text, uint64_t at, const uint8_t *bytes, size_t n)
{
	memcpy(text + (at - TEXT_BASE), bytes, n);
}

static void put_call(uint8_t *text, uint64_t at, uint64_t target)
{
	int32_t rel = (int32_t)(target - (at + 5));
	uint8_t insn[5] = { 0xe8 };

	memcpy(insn + 1, &rel, 4);
	put(text, at, insn, 5);
}

static uint8_t *kernel_text(void)
{
	static const uint8_t stac_len_in_rcx[] = { 0x0f, 0x01, 0xcb, 0x31, 0xc0, 0x48, 0x89, 0xf1 };
	static const uint8_t clac_ret[] = { 0x0f, 0x01, 0xca, 0xc3 };
	uint8_t *text = malloc(TEXT_LEN);

	assert_non_null(text);
	memset(text, 0xcc, TEXT_LEN); /* int3, as the kernel pads */
	/* read_zero+0x58: stac; xor eax, eax; mov rcx, rsi; call rep_stos_alternative; clac */
	put(text, READ_ZERO + 0x58, stac_len_in_rcx, sizeof(stac_len_in_rcx));
	put_call(text, READ_ZERO + 0x60, REP_STOS_ALT);
	put(text, READ_ZERO + 0x65, clac_ret, sizeof(clac_ret));
	/* _copy_to_iter: a kvec's call __memcpy at +0x20, a user copy's rep_movs_alternative. */
	put_call(text, COPY_TO_ITER + 0x20, MEMCPY);
	put_call(text, COPY_TO_ITER + 0x40, REP_MOVS_ALT);
	return text;
}

/* The rule files as tracefs and debugfs have them (on a kernel that has kprobes). */
struct rule_files {
	char aff[64], bl[64];
};

static void write_tmp(char *path, const char *tmpl, const char *text)
{
	FILE *f;

	strcpy(path, tmpl);
	f = fdopen(mkstemp(path), "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static struct rule_files rules;

static int setup(void **state)
{
	/* rep_movs_alternative is asm (no fentry), memcpy_orig noinstr: neither traceable. */
	write_tmp(rules.aff, "/tmp/cp-test-aff.XXXXXX",
		  "_copy_to_iter\nread_zero\nread_iter_zero\nvfs_read\nbtrfs_decompress_buf2page "
		  "[btrfs]\n");
	write_tmp(rules.bl, "/tmp/cp-test-bl.XXXXXX",
		  "0xffffffff8225a930-0xffffffff82262a45\t__noinstr_text\n"
		  "0xffffffff822563c0-0xffffffff82256440\trep_stos_alternative\n");
	return 0;
}

static int teardown(void **state)
{
	unlink(rules.aff);
	unlink(rules.bl);
	return 0;
}

enum kcore { TEXT, NO_KCORE };

/* A plan over the recorded facts: kprobes or not, the lockdown level, kernel text or not. */
static struct plan *plan_of(bool kprobes, enum lockdown_level lockdown, enum kcore kcore,
			    bool readable_rules)
{
	FILE *f = fmemopen((void *)kallsyms_text, strlen(kallsyms_text), "r");
	struct plan_facts facts = { .has_kprobes = kprobes, .lockdown = lockdown };
	struct plan *p = calloc(1, sizeof(*p));
	uint8_t *text = NULL;

	assert_non_null(f);
	facts.ks = ksyms_parse(f, "recorded 6.18.44 kallsyms");
	fclose(f);
	assert_non_null(facts.ks);
	if (kcore == TEXT) {
		text = kernel_text();
		facts.ki = kimage_open_buffer(TEXT_BASE, text, TEXT_LEN);
		assert_non_null(facts.ki);
		free(text);
	} else {
		facts.ki_why = strdup("/proc/kcore: No such file or directory; "
				      "/boot/vmlinuz-6.18.44-fc-v857: No such file or directory");
	}
	facts.kprobe_set = readable_rules ? (struct entry_paths){ rules.aff, rules.bl }
					  : (struct entry_paths){ "/nonexistent/aff",
								  "/nonexistent/blacklist" };
	assert_int_equal(plan_init_facts(p, &facts), 0);
	return p;
}

static void plan_done(struct plan *p)
{
	plan_free(p);
	free(p);
}

static const struct plan_site *site_at(const struct plan *p, const char *func, uint64_t off)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->v[i].site.spec.symbol, func) && p->v[i].site.spec.offset == off)
			return &p->v[i];
	fail_msg("no site %s+0x%llx in the plan", func, (unsigned long long)off);
	return NULL;
}

static bool has_problem(const struct plan *p, const char *text)
{
	size_t i;

	for (i = 0; i < p->nr_problems; i++)
		if (strstr(p->problems[i], text))
			return true;
	return false;
}

/* The 6.12 guest's case: kprobes, no lockdown, live text: call sites are kprobed. */
static void kprobes_where_traceable(void **state)
{
	struct plan *p = plan_of(true, LOCKDOWN_NONE, TEXT, true);
	const struct plan_site *s;

	assert_int_equal(plan_add_function(p, "read_zero"), 0);
	assert_int_equal(plan_add_function(p, "_copy_to_iter"), 0);
	assert_int_equal(p->nr, 3);
	s = site_at(p, "read_zero", 0x60);
	assert_int_equal(s->choice, PLAN_KPROBE);
	assert_int_equal(s->site.mech, MECH_KPROBE);
	assert_string_equal(s->copy_target, "rep_stos_alternative");
	assert_int_equal(s->site.spec.len_reg, CP_REG_RCX); /* the *_alternative convention */
	assert_int_equal(s->site.spec.src_reg, CP_REG_NONE);
	assert_int_equal(s->site.family, CF_CLEAR_USER);
	assert_int_equal(s->site.kaddr, READ_ZERO + 0x60);
	assert_string_equal(s->why, "kprobe: read_zero is traceable");
	s = site_at(p, "_copy_to_iter", 0x20);
	assert_string_equal(s->copy_target, "__memcpy");
	assert_int_equal(s->site.family, CF_MEMCPY);
	assert_int_equal(s->site.spec.len_reg, CP_REG_RDX);
	assert_int_equal(s->site.spec.src_reg, CP_REG_RSI);
	s = site_at(p, "_copy_to_iter", 0x40);
	assert_int_equal(s->site.family, CF_COPY_USER);
	assert_int_equal(s->choice, PLAN_KPROBE);
	assert_int_equal(plan_nr_covered(p), 3);
	assert_int_equal(p->hwbp_used, 0);
	assert_int_equal(p->nr_problems, 0);
	plan_done(p);
}

/* Entries: traceable ones get a kprobe, asm ones a breakpoint, noinstr ones nothing. */
static void entries_by_kprobe_rules(void **state)
{
	struct plan *p = plan_of(true, LOCKDOWN_NONE, TEXT, true);
	const struct plan_site *s;

	assert_int_equal(plan_add_entry(p, "read_zero"), 0);
	assert_int_equal(plan_add_entry(p, "rep_movs_alternative"), 0);
	assert_int_equal(plan_add_entry(p, "memcpy_orig"), 0);
	assert_int_equal(plan_add_entry(p, "rep_stos_alternative"), 0);
	assert_int_equal(plan_add_entry(p, "no_such_function"), 0);
	assert_int_equal(p->nr, 4);

	s = site_at(p, "read_zero", 0);
	assert_int_equal(s->choice, PLAN_KPROBE);
	assert_int_equal(s->site.spec.len_reg, CP_REG_ARG2); /* no copy routine: arg2, the third */
	assert_int_equal(s->site.family, CF_MEMCPY);	     /* ... memcpy-like */
	assert_null(s->copy_target);

	s = site_at(p, "rep_movs_alternative", 0);
	assert_int_equal(s->choice, PLAN_HWBP);
	assert_int_equal(s->site.mech, MECH_HWBP);
	assert_int_equal(s->site.kaddr, REP_MOVS_ALT);
	assert_int_equal(s->site.spec.len_reg, CP_REG_RCX);
	assert_int_equal(s->site.family, CF_COPY_USER);
	assert_non_null(strstr(s->why, "hwbp: kprobe rejected (not in available_filter_functions"));

	/* noinstr: kprobes refuse it, and x86 refuses a breakpoint where it refuses a kprobe. */
	s = site_at(p, "memcpy_orig", 0);
	assert_int_equal(s->choice, PLAN_UNCOVERED);
	assert_non_null(strstr(s->why, "in .noinstr.text, which kprobes refuse"));
	assert_non_null(strstr(s->why, "hwbp rejected (the address is noinstr/blacklisted)"));
	assert_int_equal(s->site.family, CF_MEMCPY);

	s = site_at(p, "rep_stos_alternative", 0);
	assert_int_equal(s->choice, PLAN_UNCOVERED);
	assert_non_null(strstr(s->why, "on the kprobe blacklist"));
	assert_int_equal(s->site.family, CF_CLEAR_USER);

	assert_true(has_problem(p, "no_such_function: no such kernel symbol"));
	/* An uncovered entry: its callers are listed (read_zero calls rep_stos_alternative). */
	assert_true(has_problem(p, "memcpy_orig: no probe at its entry"));
	assert_int_equal(plan_nr_covered(p), 2);
	plan_done(p);
}

/* lockdown=confidentiality: kprobes are built in but refused; breakpoints take over. */
static void lockdown_confidentiality(void **state)
{
	struct plan *p = plan_of(true, LOCKDOWN_CONFIDENTIALITY, TEXT, true);
	const struct plan_site *s;

	assert_true(p->kprobes_locked);
	assert_int_equal(plan_add_function(p, "read_zero"), 0);
	s = site_at(p, "read_zero", 0x60);
	assert_int_equal(s->choice, PLAN_HWBP);
	assert_string_equal(s->why,
			    "hwbp: kprobe rejected (lockdown=confidentiality refuses kprobes)");
	plan_done(p);

	/* Integrity lockdown allows kprobes. */
	p = plan_of(true, LOCKDOWN_INTEGRITY, TEXT, true);
	assert_false(p->kprobes_locked);
	assert_int_equal(plan_add_function(p, "read_zero"), 0);
	assert_int_equal(site_at(p, "read_zero", 0x60)->choice, PLAN_KPROBE);
	plan_done(p);
}

/* This machine's facts: no kprobes and no /proc/kcore. */
static void no_kprobes_no_kcore(void **state)
{
	struct plan *p = plan_of(false, LOCKDOWN_UNKNOWN, NO_KCORE, false);
	const struct plan_site *s;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	assert_null(p->ki);
	/* Call sites need kernel text; entries do not. */
	assert_int_equal(plan_add_function(p, "read_zero"), 0);
	assert_int_equal(p->nr, 0);
	assert_true(has_problem(p, "read_zero: no kernel text to find its call sites in"));
	assert_int_equal(plan_add_entry(p, "read_zero"), 0);
	s = site_at(p, "read_zero", 0);
	assert_int_equal(s->choice, PLAN_UNCOVERED);
	assert_string_equal(s->why, "sampled: kprobe rejected (this kernel has no kprobes); hwbp "
				    "rejected (x86 allows no kernel breakpoints without kprobes)");
	assert_true(has_problem(p, "read_zero: no probe at its entry"));
	assert_int_equal(plan_nr_covered(p), 0);

	f = open_memstream(&out, &len);
	assert_non_null(f);
	plan_print(p, f);
	plan_print_summary(p, f, 999, false);
	fclose(f);
	assert_non_null(strstr(out, "  kernel text: none (/proc/kcore: No such file or directory"));
	assert_non_null(strstr(out, "  sample read_zero+0x0 (len=arg2)  sampled: kprobe rejected"));
	assert_non_null(strstr(out, "  1 site: 0 kprobe, 0 breakpoint, 1 sampled\n"));
	assert_non_null(strstr(out, "nothing to probe: only samples whose stack goes through the "
				    "plan's functions kept (--all keeps every one)"));
	free(out);
	plan_done(p);
}

/* Rules that cannot be read (no tracefs): not known to be kprobe-able, so a breakpoint. */
static void unreadable_kprobe_rules(void **state)
{
	struct plan *p = plan_of(true, LOCKDOWN_NONE, TEXT, false);
	const struct plan_site *s;

	assert_int_equal(plan_add_entry(p, "read_zero"), 0);
	s = site_at(p, "read_zero", 0);
	assert_int_equal(s->choice, PLAN_HWBP);
	assert_non_null(strstr(s->why, "cannot read available_filter_functions"));
	plan_done(p);
}

/* More breakpoints than debug registers: the fifth and later are multiplexed. */
static void breakpoints_multiplexed(void **state)
{
	static const char *const entries[] = { "rep_movs_alternative", "read_iter_zero" };
	struct plan *p = plan_of(true, LOCKDOWN_CONFIDENTIALITY, TEXT, true);
	char *out = NULL;
	size_t i, len = 0;
	FILE *f;

	/* Under lockdown every site of read_zero and _copy_to_iter is a breakpoint too. */
	assert_int_equal(plan_add_function(p, "read_zero"), 0);
	assert_int_equal(plan_add_function(p, "_copy_to_iter"), 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(plan_add_entry(p, entries[i]), 0);
	assert_int_equal(p->hwbp_used, 5);
	assert_non_null(strstr(p->v[3].why, "hwbp: kprobe rejected"));
	assert_null(strstr(p->v[3].why, "(multiplexed)"));
	assert_non_null(strstr(p->v[4].why, "hwbp (multiplexed): kprobe rejected"));
	f = open_memstream(&out, &len);
	assert_non_null(f);
	plan_print_summary(p, f, 999, false);
	fclose(f);
	assert_non_null(strstr(out, "5 sites: 0 kprobe, 5 breakpoint (multiplexed 4 of 5 at a time)"
				    ", 0 sampled"));
	free(out);
	plan_done(p);
}

/* Zero addresses in kallsyms (kptr_restrict): no plan at all. */
static void restricted_kallsyms(void **state)
{
	static const char zeros[] = "0000000000000000 T _stext\n0000000000000000 t read_zero\n";
	FILE *f = fmemopen((void *)zeros, strlen(zeros), "r");
	struct plan_facts facts = { .has_kprobes = true };
	struct plan p;

	facts.ks = ksyms_parse(f, "restricted");
	fclose(f);
	assert_non_null(facts.ks);
	assert_true(facts.ks->restricted);
	assert_int_equal(plan_init_facts(&p, &facts), -EPERM);
}

/* The fallback to sampling, decided once (record and the agent both ask this). */
static void fallback_decision(void **state)
{
	struct record_plan_args a = { .sites = { "read_zero", "btrfs:zstd_decompress+0x20" },
				      .nr_sites = 2,
				      .entries = { "memcpy_orig,len=rdx" },
				      .nr_entries = 1 };
	struct record_plan_args none = { 0 };
	struct record_plan_fallback fb;

	/* Something was attached, or nothing was planned: no fallback. */
	assert_int_equal(record_plan_fallback(&a, 3, 0, "--all", &fb), 0);
	assert_int_equal(record_plan_fallback(&none, 0, 0, "--all", &fb), 0);

	assert_int_equal(record_plan_fallback(&a, 0, 0, "--all", &fb), 1);
	assert_int_equal(fb.hz, 999);
	assert_true(fb.every_task);
	assert_int_equal(fb.nr_keep, 3);
	assert_string_equal(fb.keep[0], "read_zero");
	assert_string_equal(fb.keep[1], "zstd_decompress");
	assert_string_equal(fb.keep[2], "memcpy_orig");
	assert_string_equal(fb.why, "no site of the plan can be probed on this kernel: SAMPLED "
				    "instead (--sample at 999 Hz, only stacks through the plan's "
				    "functions; --all keeps every stack): counts are samples, not "
				    "calls");
	record_plan_fallback_free(&fb);
	assert_null(fb.keep);

	/* The agent has no --all; record --all keeps every stack; -F sets the rate. */
	assert_int_equal(record_plan_fallback(&a, 0, 4999, NULL, &fb), 1);
	assert_non_null(strstr(fb.why, "(--sample at 4999 Hz, only stacks through the plan's "
				       "functions): "));
	record_plan_fallback_free(&fb);
	a.sample_all = true;
	assert_int_equal(record_plan_fallback(&a, 0, 0, "--all", &fb), 1);
	assert_int_equal(fb.nr_keep, 0);
	assert_non_null(strstr(fb.why, "(--sample at 999 Hz, every copy sample)"));
	record_plan_fallback_free(&fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kprobes_where_traceable),
		cmocka_unit_test(entries_by_kprobe_rules),
		cmocka_unit_test(lockdown_confidentiality),
		cmocka_unit_test(no_kprobes_no_kcore),
		cmocka_unit_test(unreadable_kprobe_rules),
		cmocka_unit_test(breakpoints_multiplexed),
		cmocka_unit_test(restricted_kallsyms),
		cmocka_unit_test(fallback_decision),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
