// SPDX-License-Identifier: GPL-2.0
/* copy_family.c: which kernel symbols are copy routines, their canonical names and conventions */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "copy_family.h"

/* Register names as written in the table below: a call site reports the name, len_recovery the FLOW_*. */
#define FLOW_rcx FLOW_RCX
#define FLOW_rdx FLOW_RDX
#define FLOW_rsi FLOW_RSI
#define FLOW_rdi FLOW_RDI

enum copy_family_use {
	LEAF = 1, /* a sampled leaf (copy_family_lookup) */
	CALL = 2, /* a call target found in a function's code (copy_target_lookup) */
};

struct copy_family_entry {
	struct copy_target call; /* name ('*' at the end matches any suffix), ... */
	struct copy_family_leaf leaf;
	unsigned int use; /* LEAF | CALL */
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
	ROUTINE("__memcpy", "memcpy", "memcpy", rdx, rdi, false, LEAF | CALL),
	ROUTINE("memcpy", "memcpy", "memcpy", rdx, rdi, false, LEAF | CALL),
	ROUTINE("__pi_memcpy", "memcpy", "memcpy", rdx, rdi, false, LEAF | CALL),
	ROUTINE("memcpy_orig", "memcpy_orig", "memcpy", rdx, rdi, false, LEAF | CALL),
	ROUTINE("memcpy_erms", "memcpy_erms", "memcpy", rdx, rdi, false, LEAF | CALL),
	ROUTINE("__memmove", "memmove", "memmove", rdx, rdi, false, LEAF | CALL),
	ROUTINE("memmove", "memmove", "memmove", rdx, rdi, false, LEAF | CALL),
	ROUTINE("__pi_memmove", "memmove", "memmove", rdx, rdi, false, LEAF | CALL),
	ROUTINE("__memset", "memset", "memset", rdx, rdi, false, LEAF | CALL),
	ROUTINE("memset", "memset", "memset", rdx, rdi, false, LEAF | CALL),
	ROUTINE("__pi_memset", "memset", "memset", rdx, rdi, false, LEAF | CALL),
	ROUTINE("memset_orig", "memset_orig", "memset", rdx, rdi, false, LEAF | CALL),
	ROUTINE("memset_erms", "memset_erms", "memset", rdx, rdi, false, LEAF | CALL),
	ROUTINE("rep_movs_alternative", "rep_movs_alternative", "copy_user", rcx, rdi, true,
		LEAF | CALL),
	/* <= 6.3: copy_user_generic_{unrolled,string}, copy_user_enhanced_fast_string (edx). */
	ROUTINE("copy_user_enhanced_fast_string", NULL, "copy_user", rdx, rdi, false, CALL),
	ROUTINE("copy_user_generic_string", NULL, "copy_user", rdx, rdi, false, CALL),
	ROUTINE("copy_user_generic_unrolled", NULL, "copy_user", rdx, rdi, false, CALL),
	ROUTINE("copy_user_*", NULL, "copy_user", rdx, rdi, false, LEAF),
	ROUTINE("__copy_user_nocache", "__copy_user_nocache", "copy_user", rdx, rdi, false,
		LEAF | CALL),
	ROUTINE("rep_stos_alternative", "rep_stos_alternative", "clear_user", rcx, rdi, true,
		LEAF | CALL),
	/* 6.1-6.3 out-of-line clear_user flavours: (dst in rdi, length in rcx). */
	ROUTINE("clear_user_erms", NULL, "clear_user", rcx, rdi, true, CALL),
	ROUTINE("clear_user_rep_good", NULL, "clear_user", rcx, rdi, true, CALL),
	ROUTINE("clear_user_original", NULL, "clear_user", rcx, rdi, true, CALL),
	ROUTINE("clear_user_*", NULL, "clear_user", rcx, rdi, true, LEAF),
	/* <= 6.0: __clear_user(addr, size) in C, and clear_user() that calls it. */
	ROUTINE("__clear_user", "__clear_user", "clear_user", rsi, rdi, false, LEAF | CALL),
	ROUTINE("clear_user", "clear_user", "clear_user", rsi, rdi, false, CALL),
};

#define NR_ENTRIES (sizeof(table) / sizeof(table[0]))

/* copy_user_* and clear_user_* also match helpers that are no copy routines. */
static const char *const not_routines[] = { "folio", "page", "offload", "flushcache" };

/* Whole-page routines: always 4 KiB, so no threshold to tune; kept out unless --leaf. */
static const char *const excluded[] = { "clear_page_erms", "clear_page_rep", "clear_page_orig",
					"copy_page",	   "copy_page_regs", "copy_mc_to_kernel" };

static char **extra;
static size_t nr_extra;
static struct copy_family_leaf extra_leaf = { NULL, "leaf", { FLOW_RDX, FLOW_RDI, false } };
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

const struct copy_family_leaf *copy_family_lookup(const char *symbol)
{
	size_t i, j, n;

	if (!symbol)
		return NULL;
	if (is_extra(symbol)) {
		pattern_hit = extra_leaf;
		pattern_hit.canonical = symbol;
		return &pattern_hit;
	}
	for (i = 0; i < NR_ENTRIES; i++) {
		const char *name = table[i].call.name;

		if (!(table[i].use & LEAF))
			continue;
		n = strlen(name);
		if (name[n - 1] != '*') {
			if (!strcmp(name, symbol))
				return &table[i].leaf;
			continue;
		}
		if (strncmp(name, symbol, n - 1) || !symbol[n - 1])
			continue;
		for (j = 0; j < sizeof(not_routines) / sizeof(not_routines[0]); j++)
			if (strstr(symbol, not_routines[j]))
				return NULL;
		pattern_hit = table[i].leaf;
		pattern_hit.canonical = symbol;
		return &pattern_hit;
	}
	return NULL;
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

const char *copy_family_inline_family(bool movs)
{
	return movs ? "movs" : "stos";
}

bool copy_family_is_inline(const char *leaf)
{
	return leaf && !strncmp(leaf, "inline_rep_", 11);
}
