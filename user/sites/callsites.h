/* SPDX-License-Identifier: GPL-2.0 */
/* callsites.h: the calls and jumps to copy-family entries inside a kernel function (Capstone) */
#ifndef CP_CALLSITES_H
#define CP_CALLSITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "copy_family.h"
#include "kernel/kimage.h"
#include "kernel/kmodule.h"
#include "kernel/kprobe_rules.h"
#include "kernel/ksyms.h"

struct callsite {
	uint64_t offset;	 /* of the instruction, from the function's start */
	uint64_t addr;		 /* runtime address; 0 when the module is not loaded */
	char mnemonic[32];	 /* call, jmp, jne ... or "rep movsb" for an inline string op */
	char *target;		 /* canonical name (__memcpy rather than memcpy); NULL if inline */
	enum copy_family family; /* the target's; CF_MOVS / CF_STOS if inline; CF_NONE */
	const char *len_reg;
	unsigned int len_scale; /* bytes per unit of len_reg: 8 for an inline rep movsq */
	char *context;		/* up to three instructions before it, "; "-separated */
};

struct callsite_list {
	char *function;
	char *module;	    /* NULL for the core kernel */
	uint64_t func_addr; /* 0 when the module is not loaded */
	uint64_t func_size;
	const char *text_source; /* kcore | vmlinux | vmlinuz | ko */
	char *text_path;
	size_t undecodable; /* bytes Capstone could not decode (skipped one at a time) */
	struct callsite *v;
	size_t nr;
};

struct callsite_opts {
	const char *modules_dir; /* for .ko files; NULL: /lib/modules/$(uname -r) */
	bool include_inline;	 /* also list inline rep movs/stos instructions */
	/*
	 * Not 0: list the direct calls and jumps to the function at this address (or into its
	 * __pfx_ padding) instead, whatever it is; family is CF_NONE and len_reg NULL unless it is a
	 * copy target. For text with addresses only (not a .ko's relocations).
	 */
	uint64_t only_target;
};

/* Code to scan: its bytes, where it runs, and for a .ko the relocations inside it. */
struct code_blob {
	const uint8_t *code;
	size_t len;
	uint64_t addr;			 /* runtime address of code[0]; 0 for an unloaded module */
	bool from_ko;			 /* targets only come from relocations */
	const struct kmod_reloc *relocs; /* sorted by offset from code[0] */
	size_t nr_relocs;
};

/*
 * Disassembles @b and appends every call/jmp/jcc whose target is a copy-family entry to
 * @out. A target is resolved through @ks (aliases merged, a __pfx_ padding thunk counts as its
 * function), or, for a .ko, through the relocation on the instruction's rel32 field (its
 * symbol name, made canonical through @ks if it is a core kernel symbol). Returns 0 or -ENOMEM.
 */
int callsites_scan(const struct ksyms *ks, const struct code_blob *b, const struct callsite_opts *o,
		   struct callsite_list *out);

/*
 * The lowest address a call to the function at @entry may aim at: the start of its __pfx_
 * padding (where call-depth tracking puts a thunk), or @entry itself if it has none.
 */
uint64_t callsites_padding_start(const struct ksyms *ks, uint64_t entry);

/*
 * Finds @func (in @module: NULL for any loaded one) and lists its copy-family call sites.
 * Text comes from @ki (may be NULL) for the core kernel; a module's from @ki when it is live
 * (/proc/kcore), else from its .ko. With several functions of that name, each is one entry
 * of *@out. Returns the number of lists, or -errno with the reason in *@why (malloc'ed).
 */
int callsites_find(const struct ksyms *ks, struct kimage *ki, const char *func, const char *module,
		   const struct callsite_opts *o, struct callsite_list **out, char **why);
void callsite_lists_free(struct callsite_list *l, size_t nr);

/* Why a kprobe at a function's entry would or would not work. */
struct entry_info {
	char *symbol;
	char *module;
	uint64_t addr;
	bool found;		   /* in kallsyms */
	enum tristate traceable;   /* listed in available_filter_functions */
	enum tristate blacklisted; /* on /sys/kernel/debug/kprobes/blacklist */
	enum tristate noinstr;	   /* in [__noinstr_text_start, __noinstr_text_end) */
	enum tristate probeable;
	char *reason; /* why not (or why unknown); NULL if probeable */
};

struct entry_paths {
	const char *filter_functions; /* NULL: tracefs, then debugfs's tracing/ */
	const char *blacklist;	      /* NULL: /sys/kernel/debug/kprobes/blacklist */
};

int callsites_entry_info(const struct ksyms *ks, const char *func, const struct entry_paths *p,
			 struct entry_info *out);
void entry_info_free(struct entry_info *e);

#endif
