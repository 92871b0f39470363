/* SPDX-License-Identifier: GPL-2.0 */
/* callers.h: every direct call or jump to a kernel function, grouped by calling function */
#ifndef CP_CALLERS_H
#define CP_CALLERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>
#include "callsites.h"
#include "kernel/kimage.h"
#include "kernel/kprobe_rules.h"
#include "kernel/ksyms.h"

struct caller_site {
	uint64_t offset; /* from the caller's start */
	uint64_t addr;
	char mnemonic[32]; /* call, jmp, jne ... */
};

struct caller {
	char *function;
	char *module; /* NULL for the core kernel */
	uint64_t addr;
	/* A kprobe inside it can work: ftrace traces it and it is off the kprobe blacklist. */
	enum tristate kprobe;
	struct caller_site *sites; /* by offset */
	size_t nr_sites;
};

struct callers {
	char *symbol; /* as asked */
	char *module; /* the symbol's module, NULL for the core kernel */
	uint64_t addr;
	bool copy_family;	 /* --site CALLER+OFF can probe the sites (else --kprobe) */
	const char *text_source; /* kcore, vmlinux, vmlinuz */
	bool live;		 /* patched text (kcore): a file lacks calls alternatives add */
	bool modules_searched;	 /* loaded modules too: only live text (kcore) has them */
	size_t candidates;	 /* call/jmp/jcc-shaped bytes aimed at the symbol */
	size_t not_insns;	 /* candidates that are not instructions of their function */
	size_t unread;		 /* bytes of text that could not be read */
	size_t nr_sites;
	size_t nr_kprobe; /* callers with kprobe TS_YES */
	struct caller *v; /* kprobe-able first, then by sites (most first), then by name */
	size_t nr;
};

/*
 * Finds the direct callers of @symbol (any of its aliases: they share its address; the first
 * symbol of that name when there are several) in the core kernel's text [_stext, _etext)
 * from @ki, and with live text (/proc/kcore) in every loaded module's. Bytes shaped like a
 * call, jmp or jcc with a relative target at the symbol (or in its __pfx_ padding) are
 * candidates; each is confirmed by decoding its function from the start with Capstone
 * (callsites_scan), so only real instruction boundaries count. @paths chooses the
 * available_filter_functions and blacklist files (NULL: the live ones). Returns 0, or -errno
 * with the reason in *@why (malloc'ed).
 */
int callers_find(const struct ksyms *ks, struct kimage *ki, const char *symbol,
		 const struct entry_paths *paths, struct callers *out, char **why);
void callers_free(struct callers *c);

#define CALLERS_SHOWN 20 /* callers listed in text by default */

/*
 * Prints the totals, then at most @max callers (kprobe-able first) with their offsets, and a
 * record command for the first one; each line starts with @indent. @len is the len= of a
 * --kprobe hint (for a symbol outside the copy family; NULL: arg2, the third argument).
 */
void callers_print(const struct callers *c, FILE *f, const char *indent, size_t max,
		   const char *len);
/* Every caller as a JSON array of {function, module, address, kprobe, sites: [...]}. */
json_object *callers_to_json(const struct callers *c);
/* The totals as a JSON object (text_source, modules_searched, candidates, ...). */
json_object *callers_summary_to_json(const struct callers *c);

#endif
