// SPDX-License-Identifier: GPL-2.0
/* test_asmref_glibc.c: the glibc replicas under every threshold setting, and glibc's own choice */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>
#include <gelf.h>

#include <cmocka.h>

#include "asmref_glibc.h"
#include "lib/elf_symbols.h"
#include "lib/elfsyms.h"
#include "lib/ifunc.h"
#include "../common/ref_memmove.h"

#define GUARD 64
#define MAX_N (80 * 1024)
#define AREA (3 * MAX_N + 3 * 4096)

static uint8_t *area, *expect, *init;

/* Settings that take every path: rep movsb, its stop, non-temporal stores, the short-distance rule. */
struct setting {
	const char *what;
	uint64_t t, stop, nt, stosb;
	uint32_t control;
};

static const struct setting settings[] = {
	{ "reference machine", 0x840, 0x100000, 0xf000000, 0x800, 0 },
	{ "T at glibc's minimum + 1, NT from 16448", 0 /* 8*VEC+1 */, 0x100000, 0x4040, 1, 0 },
	{ "T below the minimum, stop 3000, Intel FSRM", 1, 3000, 0x8080, 0, 1 },
	{ "never rep movsb, NT from 16448", UINT64_MAX, UINT64_MAX, 0x4040, UINT64_MAX, 0 },
	{ "rep movsb without stop, no NT", 4096, UINT64_MAX, UINT64_MAX, 4096, 1 },
	{ "stop below T", 2112, 1000, 20000, 2 * 32, 0 },
};

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint8_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint8_t)(rng >> 32);
}

static int setup(void **state)
{
	size_t i;

	(void)state;
	area = aligned_alloc(4096, AREA);
	expect = aligned_alloc(4096, AREA);
	init = aligned_alloc(4096, AREA);
	if (!area || !expect || !init)
		return -1;
	for (i = 0; i < AREA; i++)
		init[i] = rnd();
	memcpy(area, init, AREA);
	memcpy(expect, init, AREA);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(area);
	free(expect);
	free(init);
	return 0;
}

static void apply(const struct setting *s, int vec)
{
	struct asmref_glibc_knobs k = { .rep_movsb_threshold = s->t ?: (uint64_t)8 * vec + 1,
					.rep_movsb_stop_threshold = s->stop,
					.non_temporal_threshold = s->nt,
					.rep_stosb_threshold = s->stosb,
					.string_control = s->control };

	asmref_glibc_set_knobs(&k);
}

/*
 * One call within area: dst at @d, src at @s (offsets; they may overlap), checked against
 * the byte-wise reference over the whole touched range plus GUARD bytes each side.
 */
static void check(const struct asmref_impl *impl, size_t d, size_t s, size_t n, int c,
		  const char *what)
{
	size_t lo = (d < s ? d : s) - GUARD, hi = (d < s ? s : d) + n + GUARD;
	void *ret;

	assert_true(lo < AREA && hi <= AREA && d >= GUARD && s >= GUARD);
	if (impl->kind == ASMREF_COPY) {
		ref_memmove(expect + d, expect + s, n);
		ret = ((asmref_copy_fn *)impl->fn)(area + d, area + s, n);
	} else {
		memset(expect + d, c, n);
		ret = ((asmref_set_fn *)impl->fn)(area + d, c, n);
	}
	if (ret != area + d || memcmp(area + lo, expect + lo, hi - lo)) {
		size_t at = lo;

		char msg[256];

		while (at < hi && area[at] == expect[at])
			at++;
		snprintf(msg, sizeof(msg),
			 "%s (%s): n=%zu dst=%zu src=%zu: %s at byte %zd from dst", impl->name,
			 what, n, d, s, ret != area + d ? "wrong return value" : "wrong byte",
			 (ssize_t)at - (ssize_t)d);
		/* Put the buffers back first, so that one failure does not cascade. */
		memcpy(area + lo, init + lo, hi - lo);
		memcpy(expect + lo, init + lo, hi - lo);
		fail_msg("%s", msg);
	}
	memcpy(area + lo, init + lo, hi - lo);
	memcpy(expect + lo, init + lo, hi - lo);
}

static void lengths(int vec, const struct setting *s, size_t *out, size_t *nr)
{
	const size_t t = s->t ? (size_t)(s->t > MAX_N ? 0 : s->t) : (size_t)8 * vec + 1;
	const size_t marks[] = { 2 * vec,
				 4 * vec,
				 8 * vec,
				 t,
				 s->stop > MAX_N ? 0 : s->stop,
				 s->nt > MAX_N ? 0 : s->nt,
				 s->stosb > MAX_N ? 0 : s->stosb,
				 4096,
				 8192,
				 16384,
				 0x4040,
				 32768,
				 MAX_N - 4096 };
	size_t i, n = 0;
	int k;

	for (i = 0; i < 700; i++)
		out[n++] = i;
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		for (k = -2; k <= 2; k++)
			if (marks[i] && (long)marks[i] + k > 0 && marks[i] + k <= MAX_N - 4096)
				out[n++] = marks[i] + k;
	out[n++] = 12345;
	out[n++] = 50000 + 3;
	*nr = n;
}

static int vec_of(const struct asmref_impl *impl)
{
	return strstr(impl->name, "avx512") ? 64 : 32;
}

/* Every setting: lengths around each threshold, misaligned, and (memmove) overlapping. */
static void test_settings(void **state)
{
	const struct asmref_impl *impl = *state;
	static size_t lens[1000];
	const int vec = vec_of(impl);
	size_t i, j, nr, base = 4096 + MAX_N;
	static const long deltas[] = { 1, 2, 31, 63, 64, 65, 255, 256, 511, 512, 4095, 4096, 4097 };

	for (i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		const struct setting *s = &settings[i];

		apply(s, vec);
		lengths(vec, s, lens, &nr);
		for (j = 0; j < nr; j++) {
			size_t n = lens[j], k;

			/* Apart: dst below and above src, with every misalignment class. */
			check(impl, 4096 + 1, base + 4096 + 63, n, 0x5a, s->what);
			check(impl, base + 4096 + 7, 4096, n, 0xa5, s->what);
			check(impl, 4096, base + 4096 * 2, n, 0, s->what); /* page aliasing */
			check(impl, 4096 + 300, base + 4096 + 100, n, 1, s->what);
			if (impl->kind != ASMREF_COPY)
				continue;
			for (k = 0; k < sizeof(deltas) / sizeof(deltas[0]); k++) {
				if ((size_t)deltas[k] >= MAX_N)
					continue;
				check(impl, base + deltas[k], base, n, 0, s->what);
				check(impl, base - deltas[k], base, n, 0, s->what);
			}
			if (n > 4) {
				check(impl, base + n / 2, base, n, 0, s->what);
				check(impl, base - n / 2, base, n, 0, s->what);
				check(impl, base + n - 1, base, n, 0, s->what);
				check(impl, base - (n - 1), base, n, 0, s->what);
			}
			check(impl, base, base, n, 0, s->what);
		}
	}
	apply(&settings[0], vec);
}

/* The setter keeps the non-temporal threshold where glibc keeps it, and takes the rest. */
static void test_knobs(void **state)
{
	struct asmref_glibc_knobs k = { 1, 2, 3, 4, 1, 0 }, got, def;

	(void)state;
	asmref_glibc_set_knobs(&k);
	asmref_glibc_get_knobs(&got);
	assert_int_equal(got.rep_movsb_threshold, 1);
	assert_int_equal(got.rep_movsb_stop_threshold, 2);
	assert_int_equal(got.non_temporal_threshold, ASMREF_GLIBC_NT_MIN);
	assert_int_equal(got.rep_stosb_threshold, 4);
	assert_int_equal(got.string_control, KNOB_AVOID_SHORT_DISTANCE_REP_MOVSB);
	k.non_temporal_threshold = UINT64_MAX;
	asmref_glibc_set_knobs(&k);
	asmref_glibc_get_knobs(&got);
	assert_int_equal(got.non_temporal_threshold, ASMREF_GLIBC_NT_MAX);
	asmref_glibc_default_knobs(&def);
	assert_int_equal(def.rep_movsb_threshold, 0x840);
	asmref_glibc_set_knobs(&def);
}

/* Symbols name their replica, aliases included; others name none. */
static void test_replica_of(void **state)
{
	(void)state;
	assert_string_equal(asmref_glibc_replica_of("__memmove_avx512_unaligned_erms")->name,
			    "glibc_memmove_avx512");
	assert_string_equal(asmref_glibc_replica_of("__memcpy_avx512_unaligned_erms")->name,
			    "glibc_memmove_avx512");
	assert_string_equal(asmref_glibc_replica_of("__memcpy_chk_evex_unaligned_erms")->name,
			    "glibc_memmove_evex");
	assert_string_equal(asmref_glibc_replica_of("__memmove_avx_unaligned_erms")->name,
			    "glibc_memmove_avx2");
	assert_string_equal(asmref_glibc_replica_of("__memmove_avx_unaligned_erms_rtm")->name,
			    "glibc_memmove_avx2_rtm");
	assert_string_equal(asmref_glibc_replica_of("__memset_avx2_unaligned_erms")->name,
			    "glibc_memset_avx2");
	assert_string_equal(asmref_glibc_replica_of("__memset_avx512_unaligned_erms")->name,
			    "glibc_memset_avx512");
	assert_null(asmref_glibc_replica_of("__memmove_avx_unaligned"));
	assert_null(asmref_glibc_replica_of("__memset_avx_unaligned_erms"));
	assert_null(asmref_glibc_replica_of("__memmove_sse2_unaligned_erms"));
	assert_null(asmref_glibc_replica_of("memcpy"));
	assert_null(asmref_glibc_replica_of(NULL));
}

/* glibc's rules on CPUs this machine is not: Intel server parts and older AMD. */
static void test_rules(void **state)
{
	const struct asmref_cpu skx = { .intel = true,
					.sse2 = true,
					.ssse3 = true,
					.avx = true,
					.avx2 = true,
					.avx512f = true,
					.avx512vl = true,
					.avx512bw = true,
					.bmi2 = true,
					.erms = true };
	struct asmref_cpu c = skx;
	struct asmref_glibc_choice ch;

	(void)state;
	/* Skylake-SP .. Ice Lake-SP: AVX-512 without AVX-VNNI: zmm avoided, EVEX in ymm16-31. */
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMMOVE, &ch);
	assert_string_equal(ch.glibc_symbol, "__memmove_evex_unaligned_erms");
	assert_string_equal(ch.replica->name, "glibc_memmove_evex");
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMSET, &ch);
	assert_string_equal(ch.glibc_symbol, "__memset_evex_unaligned_erms");
	/* Sapphire Rapids: AVX-VNNI, so zmm. */
	c.avx_vnni = c.fsrm = true;
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMMOVE, &ch);
	assert_string_equal(ch.glibc_symbol, "__memmove_avx512_unaligned_erms");
	assert_int_equal(ch.vec, 64);
	/* AMD Zen 4: zmm. Zen 3 (AVX2 only): avx. */
	c = skx;
	c.intel = false;
	c.amd = true;
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMMOVE, &ch);
	assert_string_equal(ch.glibc_symbol, "__memmove_avx512_unaligned_erms");
	c.avx512f = c.avx512vl = c.avx512bw = false;
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMMOVE, &ch);
	assert_string_equal(ch.glibc_symbol, "__memmove_avx_unaligned_erms");
	assert_string_equal(ch.replica->name, "glibc_memmove_avx2");
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMSET, &ch);
	assert_string_equal(ch.glibc_symbol, "__memset_avx2_unaligned_erms");
	/* Zen 2 without ERMS: no replica (the _unaligned forms are T = never). */
	c.erms = false;
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMMOVE, &ch);
	assert_string_equal(ch.glibc_symbol, "__memmove_avx_unaligned");
	assert_null(ch.replica);
	/* Haswell/Broadwell with TSX: RTM forms. */
	c = skx;
	c.avx512f = c.avx512vl = c.avx512bw = false;
	c.rtm = true;
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMMOVE, &ch);
	assert_string_equal(ch.glibc_symbol, "__memmove_avx_unaligned_erms_rtm");
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMSET, &ch);
	assert_string_equal(ch.glibc_symbol, "__memset_avx2_unaligned_erms_rtm");
	/* memset's EVEX forms need AVX512BW and BMI2; memmove's do not. */
	c = skx;
	c.avx512bw = false;
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMSET, &ch);
	assert_string_equal(ch.glibc_symbol, "__memset_avx2_unaligned_erms");
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMMOVE, &ch);
	assert_string_equal(ch.glibc_symbol, "__memmove_evex_unaligned_erms");
	/* No AVX2: SSE forms, not replicated. */
	c = (struct asmref_cpu){ .amd = true, .sse2 = true, .erms = true };
	asmref_glibc_choose(&c, ASMREF_GLIBC_MEMMOVE, &ch);
	assert_string_equal(ch.glibc_symbol, "__memmove_sse2_unaligned_erms");
	assert_null(ch.replica);
}

/* Picks of glibc 2.36 and 2.41 (the same selectors) on other machines, as read in glibc. */
static void expect_pick(const struct asmref_cpu *c, enum asmref_glibc_func f, unsigned int minor,
			const char *want)
{
	struct asmref_glibc_choice ch;

	asmref_glibc_choose_in(c, f, minor, &ch);
	if (want)
		assert_string_equal(ch.glibc_symbol, want);
	else
		assert_null(ch.glibc_symbol);
	assert_non_null(ch.why);
}

static void test_rules_by_version(void **state)
{
	static const unsigned int minors[] = { 36, 41 };
	/* Zen 4: AVX-512 (F, VL, BW), ERMS and FSRM; AMD sets no Prefer_No_AVX512. */
	const struct asmref_cpu zen4 = { .amd = true,
					 .sse2 = true,
					 .ssse3 = true,
					 .avx = true,
					 .avx2 = true,
					 .avx512f = true,
					 .avx512vl = true,
					 .avx512bw = true,
					 .bmi2 = true,
					 .erms = true,
					 .fsrm = true };
	/* An AVX2-only Intel (Alder Lake P-cores as booted: no AVX-512, AVX-VNNI, no TSX). */
	const struct asmref_cpu adl = { .intel = true,
					.sse2 = true,
					.ssse3 = true,
					.avx = true,
					.avx2 = true,
					.avx_vnni = true,
					.bmi2 = true,
					.erms = true,
					.fsrm = true };
	struct asmref_cpu c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(minors) / sizeof(minors[0]); i++) {
		unsigned int v = minors[i];

		expect_pick(&zen4, ASMREF_GLIBC_MEMMOVE, v, "__memmove_avx512_unaligned_erms");
		expect_pick(&zen4, ASMREF_GLIBC_MEMSET, v, "__memset_avx512_unaligned_erms");
		c = zen4; /* Zen 5: AVX-VNNI too; the same code */
		c.avx_vnni = true;
		expect_pick(&c, ASMREF_GLIBC_MEMMOVE, v, "__memmove_avx512_unaligned_erms");
		expect_pick(&adl, ASMREF_GLIBC_MEMMOVE, v, "__memmove_avx_unaligned_erms");
		expect_pick(&adl, ASMREF_GLIBC_MEMSET, v, "__memset_avx2_unaligned_erms");
		c = adl; /* with TSX (Skylake client): RTM forms before Prefer_No_VZEROUPPER */
		c.rtm = true;
		expect_pick(&c, ASMREF_GLIBC_MEMMOVE, v, "__memmove_avx_unaligned_erms_rtm");
		/* SSE2 only (no SSSE3): sse2 forms on either vendor. */
		c = (struct asmref_cpu){ .intel = true, .sse2 = true, .erms = true };
		expect_pick(&c, ASMREF_GLIBC_MEMMOVE, v, "__memmove_sse2_unaligned_erms");
		expect_pick(&c, ASMREF_GLIBC_MEMSET, v, "__memset_sse2_unaligned_erms");
		c.erms = false;
		expect_pick(&c, ASMREF_GLIBC_MEMMOVE, v, "__memmove_sse2_unaligned");
		/* SSSE3 without AVX2: AMD never sets Fast_Unaligned_Copy; Intel by model. */
		c = (struct asmref_cpu){ .amd = true, .sse2 = true, .ssse3 = true, .erms = true };
		expect_pick(&c, ASMREF_GLIBC_MEMMOVE, v, "__memmove_ssse3");
		c.amd = false;
		c.intel = true;
		expect_pick(&c, ASMREF_GLIBC_MEMMOVE, v, NULL);
	}
	/* memset without ERMS (Zen 2): 2.36 takes the plain form; 2.41's is not modelled. */
	c = zen4;
	c.avx512f = c.avx512vl = c.avx512bw = c.erms = c.fsrm = false;
	expect_pick(&c, ASMREF_GLIBC_MEMSET, 36, "__memset_avx2_unaligned");
	expect_pick(&c, ASMREF_GLIBC_MEMSET, 41, NULL);
	expect_pick(&c, ASMREF_GLIBC_MEMMOVE, 41, "__memmove_avx_unaligned");
}

/*
 * The rules on this CPU agree with the loader's own choice for this process: the name of the
 * code memmove and memset are bound to (needs libc6-dbg for the names).
 */
static void check_here(enum asmref_glibc_func f, void *bound, const char *ifunc)
{
	struct asmref_glibc_choice ch;
	const char *names[8];
	struct elf_symbols syms;
	struct asmref_cpu cpu;
	uint64_t impl;
	Dl_info info;
	char *libc;
	size_t n, i;
	bool match = false;
	Elf *elf;
	int fd;

	assert_true(dladdr(bound, &info) != 0);
	libc = elfsyms_find_file(info.dli_fname);
	assert_non_null(libc);
	assert_int_equal(ifunc_resolve_here(libc, ifunc, &impl), 0);
	fd = open(libc, O_RDONLY);
	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	elf_symbols_init(&syms, libc, elf);
	n = elf_symbols_at(&syms, impl, names, 8);
	asmref_cpu_detect(&cpu);
	asmref_glibc_choose(&cpu, f, &ch);
	for (i = 0; i < n; i++) {
		print_message("%s resolves to %s here; the rules say %s (%s)\n", ifunc, names[i],
			      ch.glibc_symbol ?: "?", ch.why);
		match |= ch.glibc_symbol && !strcmp(names[i], ch.glibc_symbol);
	}
	elf_symbols_release(&syms);
	elf_end(elf);
	close(fd);
	free(libc);
	if (!n) {
		print_message("skipped: no names for libc's code without libc6-dbg\n");
		skip();
	}
	assert_true(match);
}

static void test_choice_here(void **state)
{
	void *(*volatile mm)(void *, const void *, size_t) = memmove;
	void *(*volatile ms)(void *, int, size_t) = memset;

	(void)state;
	if (getenv("GLIBC_TUNABLES")) {
		print_message("skipped: GLIBC_TUNABLES is set (hwcaps masks are not modelled)\n");
		skip();
	}
	check_here(ASMREF_GLIBC_MEMMOVE, (void *)mm, "memmove");
	check_here(ASMREF_GLIBC_MEMSET, (void *)ms, "memset");
}

int main(void)
{
	struct CMUnitTest tests[32];
	size_t nt = 0, i;

	tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_knobs);
	tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_replica_of);
	tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_rules);
	tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_rules_by_version);
	tests[nt++] = (struct CMUnitTest)cmocka_unit_test(test_choice_here);
	for (i = 0; i < asmref_count(); i++) {
		const struct asmref_impl *impl = asmref_get(i);

		if (strncmp(impl->name, "glibc_", 6))
			continue;
		if (!asmref_usable(impl)) {
			printf("%s: skipped, this CPU lacks what it needs\n", impl->name);
			continue;
		}
		tests[nt++] = (struct CMUnitTest){ .name = impl->name,
						   .test_func = test_settings,
						   .initial_state = (void *)impl };
	}
	return _cmocka_run_group_tests("asmref_glibc", tests, nt, setup, teardown);
}
