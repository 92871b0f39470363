/* SPDX-License-Identifier: GPL-2.0 */
/* perf_script.h: the one parser of `perf script` text (samples, call chains, header comments) */
#ifndef CP_PERF_SCRIPT_H
#define CP_PERF_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "kernel/insn_flow.h"

/* The fields copyprof asks perf script for (import-perf runs it with these). */
#define PERF_SCRIPT_FIELDS "comm,pid,tid,cpu,time,event,ip,sym,symoff,dso"
/* ... and iregs where the data has them: the registers to record for lengths. */
#define PERF_SCRIPT_IREGS "ax,bx,cx,dx,si,di,bp,sp,r8,r9,r10,r11,r12,r13,r14,r15"

struct perf_frame {
	uint64_t ip;
	const char *sym; /* NULL for [unknown] */
	uint64_t off;
	const char *dso; /* "vmlinux" for [kernel.kallsyms], "btrfs" for [btrfs], a path; or NULL */
	bool inlined;	 /* perf's "(inlined)": a function inlined at this address */
	bool kernel;	 /* the kernel or a kernel module */
};

struct perf_sample {
	const char *comm;
	int pid, tid, cpu;	   /* -1 when absent */
	double time;		   /* seconds; -1 when absent */
	const char *event;	   /* without perf's modifiers (":ppp"); NULL when absent */
	struct perf_frame *frames; /* leaf first */
	size_t nr;
	/*
	 * Interrupt registers (-F iregs: " ABI:2 AX:0x.. BX:0x.." after the sample) in FLOW_*
	 * order: rax rbx rcx rdx rsi rdi rbp rsp r8 .. r15. Only the first such line counts
	 * (perf prints uregs after iregs); other registers (IP, FLAGS ...) are ignored.
	 */
	int regs_abi;	    /* perf's regs ABI (2: x86-64); -1 when the sample printed none */
	uint16_t regs_have; /* the registers it carried, bit i for regs[i]; 0 unless ABI 2 */
	uint64_t regs[FLOW_NR_GPRS];
};

/* What the header comments (perf script --header) say about the recording machine. */
struct perf_header {
	char *hostname, *os_release, *cpu_desc, *cmdline;
	char *cpuid; /* x86: "GenuineIntel,6,143,8" (vendor, family, model, stepping) */
};

struct perf_script_stats {
	uint64_t lines, samples, frames, malformed;
	uint64_t first_bad_line; /* 0: none */
	char first_bad[96];	 /* its beginning, for the message */
};

/* Called once per sample; a non-zero return stops parsing and is returned. */
typedef int (*perf_sample_fn)(void *ctx, const struct perf_sample *s);

/*
 * What perf_script_parse() reads (docs/cli.md#input-limits): a line (a demangled C++ frame can
 * be long), the frames of one sample (kernel.perf_event_max_stack is 127 by default; a frame
 * line past this many is malformed) and the whole text, which is streamed: memory grows with
 * the distinct stacks, reading time with the size. A longer recording can be cut with perf
 * script --time and the imports merged.
 */
#define PERF_SCRIPT_MAX_LINE (1UL << 20)
#define PERF_SCRIPT_MAX_FRAMES 65536
#define PERF_SCRIPT_MAX_BYTES (16ULL << 30)

/*
 * Parses @f (named @name in messages) to the end. Malformed lines are counted in @st and
 * skipped, never fatal; a frame line outside a sample counts as malformed. @hdr (may be NULL)
 * gets the header comments. Returns 0, the callback's positive value, or a negative errno
 * after printing why: the limits above, a read error, no memory, or the callback's error.
 */
int perf_script_parse(FILE *f, const char *name, perf_sample_fn fn, void *ctx,
		      struct perf_header *hdr, struct perf_script_stats *st);
void perf_header_free(struct perf_header *h);
/* perf's name of register @reg (FLOW_* order): "ax" .. "r15"; "?" out of range. */
const char *perf_script_reg_name(int reg);

#endif
