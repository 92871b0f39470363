// SPDX-License-Identifier: GPL-2.0
/* copy_family.c: the family names; which symbols are copy routines, their names and conventions */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "copy_family.h"
#include "lib/regs.h"

const char copy_family_names[CF_NR][CF_NAME_MAX] = {
	[CF_MEMCPY] = "memcpy",	      [CF_MEMMOVE] = "memmove",
	[CF_MEMSET] = "memset",	      [CF_CLEAR_USER] = "clear_user",
	[CF_COPY_USER] = "copy_user", [CF_MOVS] = "movs",
	[CF_STOS] = "stos",	      [CF_LEAF] = "leaf",
	[CF_FUNCTION] = "function",
};

const char *copy_family_name(enum copy_family f)
{
	return f > CF_NONE && f < CF_NR ? copy_family_names[f] : NULL;
}

enum copy_family copy_family_parse(const char *name)
{
	int f;

	for (f = 0; name && f < CF_NR; f++)
		if (!strcmp(name, copy_family_names[f]))
			return (enum copy_family)f;
	return CF_NONE;
}

bool copy_family_has_src(enum copy_family f)
{
	return f == CF_MEMCPY || f == CF_MEMMOVE || f == CF_COPY_USER || f == CF_MOVS;
}

/* Register names as written in the table below: a call site reports the name, len_recovery the FLOW_*. */
#define FLOW_rcx FLOW_RCX
#define FLOW_rdx FLOW_RDX
#define FLOW_rsi FLOW_RSI
#define FLOW_rdi FLOW_RDI

enum copy_family_use {
	LEAF = 1,  /* a sampled leaf (copy_family_lookup) */
	CALL = 2,  /* a call target found in a function's code (copy_target_lookup) */
	ENTRY = 4, /* a probed function's entry only (copy_family_of_probe): user space */
};

struct copy_family_entry {
	struct copy_target call; /* name ('*' at the end matches any suffix), ... */
	struct copy_family_leaf leaf;
	unsigned int use; /* LEAF | CALL | ENTRY; every entry also names its probe's family */
};

/* @len and @dst are registers at entry; @down: @len counts the bytes still to do. */
#define ROUTINE(name, canonical, family, len, dst, down, use)                                      \
	{                                                                                          \
		{ name, family, #len }, { canonical, family, { FLOW_##len, FLOW_##dst, down } },   \
			use                                                                        \
	}

/*
 * Every name a copy routine has had since 5.4 (docs/sampling.md, kernel-facts.md §1-4),
 * the one list for sampling and for call sites. Sampling reports aliases at one address
 * (memcpy, __memcpy, __pi_memcpy) under one canonical name; call sites report the first alias
 * in this order. Lengths: the C ABI (rdx, or rsi for the pre-6.1 C clear_user); the asm helpers
 * called from inline alternatives take it in rcx and count down (rep_movs_alternative,
 * rep_stos_alternative, clear_user_* of 6.1-6.3); the pre-6.4 copy_user_* take rdx.
 */
static const struct copy_family_entry table[] = {
	ROUTINE("__memcpy", "memcpy", CF_MEMCPY, rdx, rdi, false, LEAF | CALL),
	ROUTINE("memcpy", "memcpy", CF_MEMCPY, rdx, rdi, false, LEAF | CALL),
	ROUTINE("__pi_memcpy", "memcpy", CF_MEMCPY, rdx, rdi, false, LEAF | CALL),
	ROUTINE("memcpy_orig", "memcpy_orig", CF_MEMCPY, rdx, rdi, false, LEAF | CALL),
	ROUTINE("memcpy_erms", "memcpy_erms", CF_MEMCPY, rdx, rdi, false, LEAF | CALL),
	ROUTINE("__memmove", "memmove", CF_MEMMOVE, rdx, rdi, false, LEAF | CALL),
	ROUTINE("memmove", "memmove", CF_MEMMOVE, rdx, rdi, false, LEAF | CALL),
	ROUTINE("__pi_memmove", "memmove", CF_MEMMOVE, rdx, rdi, false, LEAF | CALL),
	ROUTINE("__memset", "memset", CF_MEMSET, rdx, rdi, false, LEAF | CALL),
	ROUTINE("memset", "memset", CF_MEMSET, rdx, rdi, false, LEAF | CALL),
	ROUTINE("__pi_memset", "memset", CF_MEMSET, rdx, rdi, false, LEAF | CALL),
	ROUTINE("memset_orig", "memset_orig", CF_MEMSET, rdx, rdi, false, LEAF | CALL),
	ROUTINE("memset_erms", "memset_erms", CF_MEMSET, rdx, rdi, false, LEAF | CALL),
	ROUTINE("rep_movs_alternative", "rep_movs_alternative", CF_COPY_USER, rcx, rdi, true,
		LEAF | CALL),
	/* <= 6.3: copy_user_generic_{unrolled,string}, copy_user_enhanced_fast_string (edx). */
	ROUTINE("copy_user_enhanced_fast_string", NULL, CF_COPY_USER, rdx, rdi, false, CALL),
	ROUTINE("copy_user_generic_string", NULL, CF_COPY_USER, rdx, rdi, false, CALL),
	ROUTINE("copy_user_generic_unrolled", NULL, CF_COPY_USER, rdx, rdi, false, CALL),
	ROUTINE("copy_user_*", NULL, CF_COPY_USER, rdx, rdi, false, LEAF),
	ROUTINE("__copy_user_nocache", "__copy_user_nocache", CF_COPY_USER, rdx, rdi, false,
		LEAF | CALL),
	ROUTINE("rep_stos_alternative", "rep_stos_alternative", CF_CLEAR_USER, rcx, rdi, true,
		LEAF | CALL),
	/* 6.1-6.3 out-of-line clear_user flavours: (dst in rdi, length in rcx). */
	ROUTINE("clear_user_erms", NULL, CF_CLEAR_USER, rcx, rdi, true, CALL),
	ROUTINE("clear_user_rep_good", NULL, CF_CLEAR_USER, rcx, rdi, true, CALL),
	ROUTINE("clear_user_original", NULL, CF_CLEAR_USER, rcx, rdi, true, CALL),
	ROUTINE("clear_user_*", NULL, CF_CLEAR_USER, rcx, rdi, true, LEAF),
	/* <= 6.0: __clear_user(addr, size) in C, and clear_user() that calls it. */
	ROUTINE("__clear_user", "__clear_user", CF_CLEAR_USER, rsi, rdi, false, LEAF | CALL),
	ROUTINE("clear_user", "clear_user", CF_CLEAR_USER, rsi, rdi, false, CALL),
	/* glibc's, for uprobes: the public names and the ifunc flavours (__memmove_avx_unaligned). */
	ROUTINE("mempcpy", NULL, CF_MEMCPY, rdx, rdi, false, ENTRY),
	ROUTINE("__mempcpy_*", NULL, CF_MEMCPY, rdx, rdi, false, ENTRY),
	ROUTINE("__memcpy_*", NULL, CF_MEMCPY, rdx, rdi, false, ENTRY),
	ROUTINE("__memmove_*", NULL, CF_MEMMOVE, rdx, rdi, false, ENTRY),
	ROUTINE("__memset_*", NULL, CF_MEMSET, rdx, rdi, false, ENTRY),
};

#define NR_ENTRIES (sizeof(table) / sizeof(table[0]))

/* copy_user_* and clear_user_* also match helpers that are no copy routines. */
static const char *const not_routines[] = { "folio", "page", "offload", "flushcache" };

/*
 * Whole-page routines: always 4 KiB, so no threshold to tune; kept out unless --leaf. The
 * machine-check-safe copies are copy_mc_to_kernel's body, which it calls (the ERMS one or the
 * fragile one): COW and khugepaged page copies are sampled there, hardly ever in
 * copy_mc_to_kernel itself. copy_mc_to_user (pmem and DAX reads) calls them too and goes with
 * them.
 */
static const char *const excluded[] = { "clear_page_erms",
					"clear_page_rep",
					"clear_page_orig",
					"copy_page",
					"copy_page_regs",
					"copy_mc_to_kernel",
					"copy_mc_enhanced_fast_string",
					"copy_mc_fragile" };

static char **extra;
static size_t nr_extra;
static struct copy_family_leaf extra_leaf = { NULL, CF_LEAF, { FLOW_RDX, FLOW_RDI, false } };
/* Leaves matched by a pattern carry their own name; one static slot per call is enough. */
static __thread struct copy_family_leaf pattern_hit;

int copy_family_add_leaf(const char *symbol)
{
	char **n = realloc(extra, (nr_extra + 1) * sizeof(*extra));

	if (!n)
		return -ENOMEM;
	extra = n;
	extra[nr_extra] = strdup(symbol);
	if (!extra[nr_extra])
		return -ENOMEM;
	nr_extra++;
	return 0;
}

size_t copy_family_extra_leaves(const char *const **names)
{
	*names = (const char *const *)extra;
	return nr_extra;
}

void copy_family_reset(void)
{
	while (nr_extra)
		free(extra[--nr_extra]);
	free(extra);
	extra = NULL;
}

static bool is_extra(const char *symbol)
{
	size_t i;

	for (i = 0; i < nr_extra; i++)
		if (!strcmp(extra[i], symbol))
			return true;
	return false;
}

/* @symbol is @name, or starts with @name's text before a final '*' (and is no helper). */
static bool name_matches(const char *name, const char *symbol)
{
	size_t j, n = strlen(name);

	if (name[n - 1] != '*')
		return !strcmp(name, symbol);
	if (strncmp(name, symbol, n - 1) || !symbol[n - 1])
		return false;
	for (j = 0; j < sizeof(not_routines) / sizeof(not_routines[0]); j++)
		if (strstr(symbol, not_routines[j]))
			return false;
	return true;
}

const struct copy_family_leaf *copy_family_lookup(const char *symbol)
{
	size_t i;

	if (!symbol)
		return NULL;
	if (is_extra(symbol)) {
		pattern_hit = extra_leaf;
		pattern_hit.canonical = symbol;
		return &pattern_hit;
	}
	for (i = 0; i < NR_ENTRIES; i++) {
		const char *name = table[i].call.name;

		if (!(table[i].use & LEAF) || !name_matches(name, symbol))
			continue;
		if (name[strlen(name) - 1] != '*')
			return &table[i].leaf;
		pattern_hit = table[i].leaf;
		pattern_hit.canonical = symbol;
		return &pattern_hit;
	}
	return NULL;
}

enum copy_family copy_family_of_probe(const char *symbol, int len_reg)
{
	size_t i;

	for (i = 0; symbol && i < NR_ENTRIES; i++)
		if (name_matches(table[i].call.name, symbol))
			return table[i].call.family;
	return len_reg == CP_REG_ARG1 ? CF_CLEAR_USER : CF_MEMCPY; /* clear(dst, len) */
}

const struct copy_target *copy_target_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < NR_ENTRIES; i++)
		if ((table[i].use & CALL) && !strcmp(table[i].call.name, name))
			return &table[i].call;
	return NULL;
}

bool copy_family_excluded(const char *symbol)
{
	size_t i;

	if (!symbol || is_extra(symbol))
		return false;
	for (i = 0; i < sizeof(excluded) / sizeof(excluded[0]); i++)
		if (!strcmp(excluded[i], symbol))
			return true;
	return false;
}

const char *copy_family_inline_name(int width, bool movs)
{
	static const char *const names[2][4] = {
		{ "inline_rep_stosb", "inline_rep_stosw", "inline_rep_stosd", "inline_rep_stosq" },
		{ "inline_rep_movsb", "inline_rep_movsw", "inline_rep_movsd", "inline_rep_movsq" },
	};
	int i = width == 8 ? 3 : width == 4 ? 2 : width == 2 ? 1 : 0;

	return names[movs][i];
}

enum copy_family copy_family_inline_family(bool movs)
{
	return movs ? CF_MOVS : CF_STOS;
}

bool copy_family_is_inline(const char *leaf)
{
	return leaf && !strncmp(leaf, "inline_rep_", 11);
}
