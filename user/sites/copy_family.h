/* SPDX-License-Identifier: GPL-2.0 */
/* copy_family.h: the one list of copy-family routines: sampled leaves and call targets */
#ifndef CP_COPY_FAMILY_H
#define CP_COPY_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include "len_recovery.h"

/* What a leaf symbol is to copyprof. */
struct copy_family_leaf {
	const char *canonical; /* the name profiles use: memcpy for __memcpy and __pi_memcpy */
	const char *family;    /* memcpy, memmove, memset, clear_user, copy_user, or "leaf" */
	struct len_recovery_conv conv; /* for the length rules */
};

/*
 * An entry point of the kernel's copy family as a call target, and where its length is at
 * the call. Ordered: of several aliases at one address, the first is the one reported.
 */
struct copy_target {
	const char *name;
	const char *family;  /* memcpy | memmove | memset | clear_user | copy_user */
	const char *len_reg; /* rdx for the C ABI ones; rcx for rep_*_alternative style */
};

/* The call target named @name, or NULL: __x86_indirect_thunk_* and friends are not targets. */
const struct copy_target *copy_target_lookup(const char *name);

/* Adds a --leaf SYMBOL (family "leaf", memcpy-like convention). Returns 0 or -ENOMEM. */
int copy_family_add_leaf(const char *symbol);
/* The --leaf symbols given so far; returns their number. */
size_t copy_family_extra_leaves(const char *const **names);
/* Drops the --leaf symbols. */
void copy_family_reset(void);
/*
 * The entry for @symbol if it is a copy-family routine (or a --leaf), else NULL. For a
 * pattern or --leaf match, canonical points into @symbol and the entry lasts until the next call.
 */
const struct copy_family_leaf *copy_family_lookup(const char *symbol);
/*
 * True for routines that are never copy family even though they run rep movs/stos:
 * whole-page clear and copy (fixed 4 KiB, no threshold to tune). A --leaf overrides.
 */
bool copy_family_excluded(const char *symbol);
/* Name of the pseudo leaf for an inline rep string instruction: "inline_rep_movsb" ... */
const char *copy_family_inline_name(int width, bool movs);
/* The family of an inline rep: memcpy for movs, memset for stos. */
const char *copy_family_inline_family(bool movs);
/* True if @leaf is one of the copy_family_inline_name() pseudo leaves. */
bool copy_family_is_inline(const char *leaf);

#endif
