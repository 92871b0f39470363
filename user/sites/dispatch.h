/* SPDX-License-Identifier: GPL-2.0 */
/* dispatch.h: which code the kernel runs for memcpy, memmove, memset, clear_user, copy_user */
#ifndef CP_DISPATCH_H
#define CP_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "copy_family.h"
#include "kernel/kimage.h"
#include "kernel/ksyms.h"
#include "lib/host.h"

#define DISPATCH_NO_MAX UINT64_MAX
#define DISPATCH_MAX_ROWS 4

/* For lengths [min, max], this code runs. */
struct dispatch_row {
	uint64_t min, max;     /* max DISPATCH_NO_MAX: no upper bound */
	char *code;	       /* "memcpy_orig", "__memcpy (inline)", "rep_movs_alternative" ... */
	const char *string_op; /* "rep movsb", "rep movsq + rep movsb" ...; NULL for loop code */
};

struct dispatch_entry {
	const char
		*routine;   /* the routine's family name (copy_family_name): memcpy ... copy_user */
	const char *source; /* "kcore": decoded from the patched text; "table": by version+flags */
	char *read_at;	    /* kcore: the function decoded (__memcpy, _copy_to_user ...) */
	char *decoded;	    /* kcore: the instructions that decided, "; "-separated */
	char *note;	    /* what else applies (backward memmove, sizes inside a helper) */
	struct dispatch_row rows[DISPATCH_MAX_ROWS];
	size_t nr_rows;
};

struct dispatch_cpu {
	bool erms, fsrm, fsrs, rep_good;
};

struct dispatch {
	int major, minor; /* kernel version the table used */
	struct dispatch_cpu cpu;
	struct dispatch_entry e[CF_NR_ROUTINES];
};

/* Parses "6.12.117+deb12-amd64" into 6 and 12; false if it does not start like that. */
bool dispatch_parse_release(const char *release, int *major, int *minor);
/*
 * The CPU flags that select the code, from @m (host_fill_meta). FSRS also counts as set on
 * an AMD CPU (host_is_amd(): Hygon too) with FSRM from 6.4 on (the kernel sets it:
 * e046fe5a36a9).
 */
void dispatch_cpu_from_meta(const struct host_meta *m, int major, int minor,
			    struct dispatch_cpu *cpu);

/* Fills every entry from the documented table (docs/kernel-targets.md, kernel-facts.md 1-3). */
void dispatch_from_table(int major, int minor, const struct dispatch_cpu *cpu, struct dispatch *d);
/*
 * Entry @r from the table (source "table"); dispatch_from_table calls it for each. The rows
 * inside an out-of-line helper (e.g. rep_movs_alternative's 8-byte loop below 64) are always
 * the table's, whatever decided which helper runs.
 */
void dispatch_table_entry(int major, int minor, const struct dispatch_cpu *cpu, enum copy_family r,
			  struct dispatch_entry *e);
/* Rows for when @helper (a kallsyms name, or "inline") handles @r, per the table. */
void dispatch_helper_rows(int major, int minor, const struct dispatch_cpu *cpu, enum copy_family r,
			  const char *helper, const char *inline_op, struct dispatch_entry *e);

/*
 * The live dispatch: with @ki live (/proc/kcore), decodes the patched entries of __memcpy,
 * __memmove, __memset and the inline alternatives in read_zero (clear_user) and
 * _copy_to_user (copy_user); every entry it cannot decode, and all of them without kcore,
 * come from the table for @release and @m's flags.
 */
void dispatch_probe(const struct ksyms *ks, struct kimage *ki, const char *release,
		    const struct host_meta *m, struct dispatch *d);
void dispatch_free(struct dispatch *d);

#endif
