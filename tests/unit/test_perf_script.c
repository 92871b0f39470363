// SPDX-License-Identifier: GPL-2.0
/* test_perf_script.c: the perf script parser line by line, and the leaf/caller attribution */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sites/copy_family.h"
#include "profile/perf_script.h"
#include "profile/sample_agg.h"

struct got {
	int samples;
	char comm[64], event[32], leaf_sym[128], leaf_dso[64], frame1[128];
	int pid, tid, cpu, nr;
	uint64_t leaf_ip, leaf_off;
	bool leaf_kernel, frame1_inlined;
	char frame1_dso[64];
};

static int collect(void *ctx, const struct perf_sample *s)
{
	struct got *g = ctx;

	g->samples++;
	snprintf(g->comm, sizeof(g->comm), "%s", s->comm ?: "");
	snprintf(g->event, sizeof(g->event), "%s", s->event ?: "");
	g->pid = s->pid;
	g->tid = s->tid;
	g->cpu = s->cpu;
	g->nr = (int)s->nr;
	if (s->nr) {
		g->leaf_ip = s->frames[0].ip;
		g->leaf_off = s->frames[0].off;
		g->leaf_kernel = s->frames[0].kernel;
		snprintf(g->leaf_sym, sizeof(g->leaf_sym), "%s", s->frames[0].sym ?: "(null)");
		snprintf(g->leaf_dso, sizeof(g->leaf_dso), "%s", s->frames[0].dso ?: "(null)");
	}
	if (s->nr > 1) {
		snprintf(g->frame1, sizeof(g->frame1), "%s", s->frames[1].sym ?: "(null)");
		snprintf(g->frame1_dso, sizeof(g->frame1_dso), "%s", s->frames[1].dso ?: "(null)");
		g->frame1_inlined = s->frames[1].inlined;
	}
	return 0;
}

static struct perf_script_stats parse(const char *text, struct got *g)
{
	struct perf_script_stats st;
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	memset(g, 0, sizeof(*g));
	assert_non_null(f);
	assert_int_equal(perf_script_parse(f, collect, g, NULL, &st), 0);
	fclose(f);
	return st;
}

static void test_header_forms(void **state)
{
	struct got g;
	struct perf_script_stats st;

	(void)state;
	st = parse("Web Content 900/903 [001] 101.5: cpu-clock:ppp: \n"
		   "\tffffffff81500000 memcpy+0x2d ([kernel.kallsyms])\n",
		   &g);
	assert_int_equal(st.samples, 1);
	assert_string_equal(g.comm, "Web Content");
	assert_int_equal(g.pid, 900);
	assert_int_equal(g.tid, 903);
	assert_int_equal(g.cpu, 1);
	assert_string_equal(g.event, "cpu-clock");
	assert_string_equal(g.leaf_sym, "memcpy");
	assert_int_equal(g.leaf_off, 0x2d);
	assert_string_equal(g.leaf_dso, "vmlinux");
	assert_true(g.leaf_kernel);
	/* perf's default fields: tid only, then a period. */
	st = parse("perf  1234 [000] 101.5:     250000 cycles: \n"
		   "\tffffffffc0a1b2c3 ZSTD_decompressStream+0x794 ([zstd_decompress])\n",
		   &g);
	assert_int_equal(st.samples, 1);
	assert_int_equal(g.pid, 1234);
	assert_string_equal(g.event, "cycles");
	assert_string_equal(g.leaf_dso, "zstd_decompress");
	/* No call chain: the frame follows on the header line. */
	st = parse("dd 77/77 [000] 1.0: cpu-clock:  ffffffff82256060 rep_stos_alternative+0x20 "
		   "([kernel.kallsyms])\n",
		   &g);
	assert_int_equal(g.nr, 1);
	assert_string_equal(g.leaf_sym, "rep_stos_alternative");
}

static void test_frames(void **state)
{
	struct got g;
	struct perf_script_stats st;

	(void)state;
	st = parse(
		"app 5/5 [3] 1.0: cpu-clock: \n"
		"\t          401234 std::vector<int>::push_back(int const&)+0x12 (/usr/bin/app)\n"
		"\tffffffff81234567 clear_page_tail (inlined)\n"
		"\tffffffff81234567 ext4_block_zero_page_range+0x1b7 ([kernel.kallsyms])\n"
		"\t    7f6c435abc6c [unknown] ([unknown])\n"
		"\tnot-an-address foo\n",
		&g);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.malformed, 1);
	assert_int_equal(g.nr, 4);
	assert_string_equal(g.leaf_sym, "std::vector<int>::push_back(int const&)");
	assert_int_equal(g.leaf_off, 0x12);
	assert_false(g.leaf_kernel);
	assert_string_equal(g.frame1, "clear_page_tail");
	assert_true(g.frame1_inlined);
	assert_string_equal(g.frame1_dso, "vmlinux"); /* from the frame it is inlined into */
}

static void test_malformed(void **state)
{
	struct got g;
	struct perf_script_stats st;
	static const char nul_line[] = "dd 1/1 [0] 1.0: cpu-clock:\0 junk\n";
	FILE *f;

	(void)state;
	st = parse("\tffffffff81000000 orphan+0x0 ([kernel.kallsyms])\n"
		   "words without any pid\n"
		   "12 34 56\n",
		   &g);
	assert_int_equal(st.samples, 0);
	assert_int_equal(st.malformed, 3);
	assert_int_equal(st.first_bad_line, 1);
	f = fmemopen((void *)nul_line, sizeof(nul_line) - 1, "r");
	assert_int_equal(perf_script_parse(f, collect, &g, NULL, &st), 0);
	fclose(f);
	assert_int_equal(st.malformed, 1);
}

static void test_attribution(void **state)
{
	struct sample_frame fr[3] = {
		{ "__memcpy", 0, "vmlinux" },
		{ "ZSTD_decompressStream", 0x794, "vmlinux" },
		{ "zstd_decompress_bio", 0x10, "vmlinux" },
	};
	struct sample_attr at;

	(void)state;
	assert_true(sample_attribute(fr, 3, 0, false, &at));
	assert_string_equal(at.leaf, "memcpy");
	assert_int_equal(at.caller, 1);
	fr[0].sym = "read_zero";
	assert_false(sample_attribute(fr, 3, 0, false, &at));
	assert_true(sample_attribute(fr, 3, 1, false, &at));
	assert_string_equal(at.leaf, "inline_rep_stosb");
	assert_int_equal(at.caller, 0);
	assert_null(at.conv);
	fr[0].sym = "clear_page_erms"; /* excluded, even at a rep stos */
	assert_false(sample_attribute(fr, 3, 1, false, &at));
	fr[0].sym = "copy_user_large_folio"; /* copy_user_* pattern, but no copy routine */
	assert_false(sample_attribute(fr, 3, 0, false, &at));
	fr[0].sym = "clear_user_erms";
	assert_true(sample_attribute(fr, 3, 0, false, &at));
	assert_string_equal(at.family, "clear_user");
	fr[0].sym = "memcpy";
	fr[0].user = true; /* glibc's */
	assert_false(sample_attribute(fr, 3, 0, false, &at));
	assert_int_equal(copy_family_add_leaf("memcpy"), 0);
	assert_true(sample_attribute(fr, 3, 0, false, &at));
	assert_string_equal(at.family, "leaf");
	copy_family_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_forms),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_attribution),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
