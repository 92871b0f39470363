/* SPDX-License-Identifier: GPL-2.0 */
/* copy_family.h: the copy families (one enum, one name table) and the one list of their routines */
#ifndef CP_COPY_FAMILY_H
#define CP_COPY_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include "len_recovery.h"

/*
 * What a site's copies are (a profile's sites[].family, docs/profile-format.md#families).
 * The first CF_NR_ROUTINES are the kernel's copy routines, in the order of its dispatch
 * (dispatch.h); the others say how a sampled site was found.
 */
enum copy_family {
	CF_NONE = -1,  /* not known: a site no writer named (readers infer it, profile_family.h) */
	CF_MEMCPY,     /* memcpy, __memcpy, memcpy_orig ... and every memcpy-like probe */
	CF_MEMMOVE,    /* memmove, __memmove */
	CF_MEMSET,     /* memset, __memset, memset_orig ... */
	CF_CLEAR_USER, /* clear_user, __clear_user, rep_stos_alternative, clear_user_* */
	CF_COPY_USER,  /* rep_movs_alternative, copy_user_*: copies to and from user space */
	CF_MOVS,       /* an inline rep movs instruction */
	CF_STOS,       /* an inline rep stos instruction */
	CF_LEAF,       /* a --leaf symbol of import-perf or record --sample */
	CF_FUNCTION,   /* every sample in one probed function (the agent's sampled sites) */
	CF_NR
};

/* The routines a kernel dispatches: CF_MEMCPY up to CF_COPY_USER. */
#define CF_NR_ROUTINES (CF_COPY_USER + 1)
#define CF_NAME_MAX 12

/*
 * The one table of family names, indexed by enum copy_family: "memcpy", "memmove", "memset",
 * "clear_user", "copy_user", "movs", "stos", "leaf", "function". An array of arrays, so that
 * another static table can point at a name (copy_family_names[CF_MEMCPY] is a constant).
 */
extern const char copy_family_names[CF_NR][CF_NAME_MAX];

/* The name of @f, or NULL for CF_NONE and values out of range. */
const char *copy_family_name(enum copy_family f);
/* The family named @name, or CF_NONE if none is. */
enum copy_family copy_family_parse(const char *name);
/* True if @f's copies read a source buffer (memcpy, memmove, copy_user, movs). */
bool copy_family_has_src(enum copy_family f);
/*
 * The family of a probe at @symbol's entry whose length is in @len_reg (an enum cp_reg): the
 * routine's own when @symbol is in the list of copy routines (kernel, or glibc's memcpy,
 * mempcpy, memmove, memset and their __*_ flavours), else by the length rule of target_spec.h:
 * clear_user-like with the length in arg2, memcpy-like otherwise.
 */
enum copy_family copy_family_of_probe(const char *symbol, int len_reg);

/* What a leaf symbol is to copyprof. */
struct copy_family_leaf {
	const char *canonical;	 /* the name profiles use: memcpy for __memcpy and __pi_memcpy */
	enum copy_family family; /* a routine's, or CF_LEAF */
	struct len_recovery_conv conv; /* for the length rules */
};

/*
 * An entry point of the kernel's copy family as a call target, and where its length is at
 * the call. Ordered: of several aliases at one address, the first is the one reported.
 */
struct copy_target {
	const char *name;
	enum copy_family family; /* one of the CF_NR_ROUTINES */
	const char *len_reg;	 /* rdx for the C ABI ones; rcx for rep_*_alternative style */
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
 * whole-page clear and copy (fixed 4 KiB, no threshold to tune), copy_mc_to_kernel's page
 * copies included (copy_mc_enhanced_fast_string, copy_mc_fragile). A --leaf overrides.
 */
bool copy_family_excluded(const char *symbol);
/* Name of the pseudo leaf for an inline rep string instruction: "inline_rep_movsb" ... */
const char *copy_family_inline_name(int width, bool movs);
/* The family of an inline rep: CF_MOVS or CF_STOS. */
enum copy_family copy_family_inline_family(bool movs);
/* True if @leaf is one of the copy_family_inline_name() pseudo leaves. */
bool copy_family_is_inline(const char *leaf);

#endif
