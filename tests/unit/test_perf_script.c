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
#include "import/perf_script.h"
#include "profile/sample_agg.h"

struct got {
	int samples;
	char comm[64], event[32], leaf_sym[128], leaf_dso[64], frame1[128];
	int pid, tid, cpu, nr;
	uint64_t leaf_ip, leaf_off;
	bool leaf_kernel, frame1_inlined;
	char frame1_dso[64];
	int regs_abi;
	uint16_t regs_have;
	uint64_t regs[FLOW_NR_GPRS];
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
	g->regs_abi = s->regs_abi;
	g->regs_have = s->regs_have;
	memcpy(g->regs, s->regs, sizeof(g->regs));
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
	assert_int_equal(perf_script_parse(f, "test", collect, g, NULL, &st), 0);
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
	assert_int_equal(perf_script_parse(f, "test", collect, &g, NULL, &st), 0);
	fclose(f);
	assert_int_equal(st.malformed, 1);
}

/* perf 6.1's -F iregs, as it printed a dd sample on this machine (--intr-regs=ax,..,r15,ip). */
#define REGS_LINE                                                                                  \
	" ABI:2    AX:0x0    BX:0xffff888109058300    CX:0xe000000000000000    "                   \
	"DX:0xffff888109058300    SI:0x0    DI:0xffff888109058300    BP:0xffffc9000190fb50    "    \
	"SP:0xffffc9000190fa70    IP:0xffffffff81af83a5    R8:0x0    R9:0x0   R10:0x0   "          \
	"R11:0x0   R12:0xffffc9000190fc8c   R13:0xfffffffe   R14:0xfffffffffffffffe   "            \
	"R15:0x101 "

static void check_regs_line(const struct got *g)
{
	assert_int_equal(g->regs_abi, 2);
	assert_int_equal(g->regs_have, 0xffff);
	assert_int_equal(g->regs[FLOW_RAX], 0);
	assert_int_equal(g->regs[FLOW_RBX], 0xffff888109058300ULL);
	assert_int_equal(g->regs[FLOW_RCX], 0xe000000000000000ULL);
	assert_int_equal(g->regs[FLOW_RDX], 0xffff888109058300ULL);
	assert_int_equal(g->regs[FLOW_RSI], 0);
	assert_int_equal(g->regs[FLOW_RDI], 0xffff888109058300ULL);
	assert_int_equal(g->regs[FLOW_RBP], 0xffffc9000190fb50ULL);
	assert_int_equal(g->regs[FLOW_RSP], 0xffffc9000190fa70ULL);
	assert_int_equal(g->regs[FLOW_R8], 0);
	assert_int_equal(g->regs[FLOW_R12], 0xffffc9000190fc8cULL);
	assert_int_equal(g->regs[FLOW_R13], 0xfffffffeULL);
	assert_int_equal(g->regs[FLOW_R14], 0xfffffffffffffffeULL);
	assert_int_equal(g->regs[FLOW_R15], 0x101);
}

static void test_iregs(void **state)
{
	struct got g;
	struct perf_script_stats st;

	(void)state;
	/* With a call chain: the registers follow it on their own line. */
	st = parse("mkdir 16298/16298 [000] 11180.046178: cpu-clock: \n"
		   "\tffffffff81af83a5 hook_file_free_security+0x5 ([kernel.kallsyms])\n"
		   "\tffffffff81ac32c6 security_file_free+0x36 ([kernel.kallsyms])\n" REGS_LINE "\n"
		   "\n",
		   &g);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.malformed, 0);
	assert_int_equal(g.nr, 2);
	check_regs_line(&g);
	/* Without one (-G, or no -g): COMM padded, the frame and registers on the sample line. */
	st = parse("           dd 16298/16298 [000] 11180.046178: cpu-clock:  ffffffff81af83a5 "
		   "hook_file_free_security+0x5 ([kernel.kallsyms])" REGS_LINE "\n",
		   &g);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.malformed, 0);
	assert_string_equal(g.comm, "dd");
	assert_int_equal(g.nr, 1);
	assert_string_equal(g.leaf_sym, "hook_file_free_security");
	assert_string_equal(g.leaf_dso, "vmlinux");
	check_regs_line(&g);
	/* Lower case, a subset, and a second dump (uregs) that does not count. */
	st = parse("dd 7/7 [1] 2.5: cycles: \n"
		   "\tffffffff81500000 memcpy+0x2d ([kernel.kallsyms])\n"
		   " ABI:2 cx:0xbb8 di:0xffff888100001000 r8:0x7\n"
		   " ABI:2 cx:0x1 di:0x2\n",
		   &g);
	assert_int_equal(st.malformed, 0);
	assert_int_equal(g.regs_have, 1u << FLOW_RCX | 1u << FLOW_RDI | 1u << FLOW_R8);
	assert_int_equal(g.regs[FLOW_RCX], 3000);
	assert_int_equal(g.regs[FLOW_RDI], 0xffff888100001000ULL);
	assert_int_equal(g.regs[FLOW_R8], 7);
	assert_int_equal(g.regs[FLOW_RAX], 0);
	/* No registers recorded (ABI 0), or none printed: none carried. */
	st = parse("dd 7/7 [1] 2.5: cycles: \n\tffffffff81500000 memcpy+0x2d ([kernel.kallsyms])\n"
		   " ABI:0 \n",
		   &g);
	assert_int_equal(st.malformed, 0);
	assert_int_equal(g.regs_abi, 0);
	assert_int_equal(g.regs_have, 0);
	st = parse("dd 7/7 [1] 2.5: cycles: \n\tffffffff81500000 memcpy+0x2d ([kernel.kallsyms])\n",
		   &g);
	assert_int_equal(g.regs_abi, -1);
	assert_int_equal(g.regs_have, 0);
	/* A broken dump is malformed and leaves the sample without registers, not some. */
	st = parse("dd 7/7 [1] 2.5: cycles: \n\tffffffff81500000 memcpy+0x2d ([kernel.kallsyms])\n"
		   " ABI:2 cx:0xbb8 di:12 \n",
		   &g);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.malformed, 1);
	assert_int_equal(g.regs_have, 0);
	/* Registers outside a sample are malformed; a 2-digit hex COMM is still a COMM. */
	st = parse(" ABI:2 cx:0x1\n", &g);
	assert_int_equal(st.samples, 0);
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
	/* copy_mc_to_kernel's page copies run in its tail-called body, at a rep movsb. */
	fr[0].sym = "copy_mc_enhanced_fast_string";
	assert_false(sample_attribute(fr, 3, 1, true, &at));
	fr[0].sym = "copy_mc_fragile";
	assert_false(sample_attribute(fr, 3, 8, true, &at));
	fr[0].sym = "copy_mc_to_kernel";
	assert_false(sample_attribute(fr, 3, 1, true, &at));
	fr[0].sym = "copy_user_large_folio"; /* copy_user_* pattern, but no copy routine */
	assert_false(sample_attribute(fr, 3, 0, false, &at));
	fr[0].sym = "clear_user_erms";
	assert_true(sample_attribute(fr, 3, 0, false, &at));
	assert_string_equal(copy_family_name(at.family), "clear_user");
	fr[0].sym = "memcpy";
	fr[0].user = true; /* glibc's */
	assert_false(sample_attribute(fr, 3, 0, false, &at));
	assert_int_equal(copy_family_add_leaf("memcpy"), 0);
	assert_true(sample_attribute(fr, 3, 0, false, &at));
	assert_string_equal(copy_family_name(at.family), "leaf");
	copy_family_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_forms), cmocka_unit_test(test_frames),
		cmocka_unit_test(test_malformed),    cmocka_unit_test(test_iregs),
		cmocka_unit_test(test_attribution),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
