/* SPDX-License-Identifier: GPL-2.0 */
/* perf_script.h: the one parser of `perf script` text (samples, call chains, header comments) */
#ifndef CP_PERF_SCRIPT_H
#define CP_PERF_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The fields copyprof asks perf script for (import-perf runs it with these). */
#define PERF_SCRIPT_FIELDS "comm,pid,tid,cpu,time,event,ip,sym,symoff,dso"

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
};

/* What the header comments (perf script --header) say about the recording machine. */
struct perf_header {
	char *hostname, *os_release, *cpu_desc, *cmdline;
};

struct perf_script_stats {
	uint64_t lines, samples, frames, malformed;
	uint64_t first_bad_line; /* 0: none */
	char first_bad[96];	 /* its beginning, for the message */
};

/* Called once per sample; a non-zero return stops parsing and is returned. */
typedef int (*perf_sample_fn)(void *ctx, const struct perf_sample *s);

/*
 * Parses @f to the end. Malformed lines are counted in @st and skipped, never fatal; a frame
 * line outside a sample counts as malformed. @hdr (may be NULL) gets the header comments.
 * Returns 0, the callback's non-zero value, or -errno on a read error or allocation failure.
 */
int perf_script_parse(FILE *f, perf_sample_fn fn, void *ctx, struct perf_header *hdr,
		      struct perf_script_stats *st);
void perf_header_free(struct perf_header *h);

#endif
