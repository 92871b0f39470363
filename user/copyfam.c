// SPDX-License-Identifier: GPL-2.0
/* copyfam.c: which kernel symbols are copy routines, their canonical names and conventions */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "copyfam.h"

#define RDX_DST { FLOW_RDX, FLOW_RDI, false }	/* memcpy(dst, src, len), memset(dst, c, len) */
#define RCX_DOWN { FLOW_RCX, FLOW_RDI, true }	/* rep_*_alternative: rcx counts down */

struct copyfam_entry {
	const char *name;	/* kallsyms name; a trailing '*' matches any suffix */
	struct copyfam_leaf leaf;
};

/*
 * Every name a copy routine has had since 5.4 (docs/sampling.md, kernel-facts.md §1-4).
 * Aliases at one address (memcpy, __memcpy, __pi_memcpy) report under one canonical name.
 */
static const struct copyfam_entry table[] = {
	{ "memcpy", { "memcpy", "memcpy", RDX_DST } },
	{ "__memcpy", { "memcpy", "memcpy", RDX_DST } },
	{ "__pi_memcpy", { "memcpy", "memcpy", RDX_DST } },
	{ "memcpy_orig", { "memcpy_orig", "memcpy", RDX_DST } },
	{ "memcpy_erms", { "memcpy_erms", "memcpy", RDX_DST } },
	{ "memmove", { "memmove", "memmove", RDX_DST } },
	{ "__memmove", { "memmove", "memmove", RDX_DST } },
	{ "__pi_memmove", { "memmove", "memmove", RDX_DST } },
	{ "memset", { "memset", "memset", RDX_DST } },
	{ "__memset", { "memset", "memset", RDX_DST } },
	{ "__pi_memset", { "memset", "memset", RDX_DST } },
	{ "memset_orig", { "memset_orig", "memset", RDX_DST } },
	{ "memset_erms", { "memset_erms", "memset", RDX_DST } },
	{ "rep_movs_alternative", { "rep_movs_alternative", "copy_user", RCX_DOWN } },
	{ "rep_stos_alternative", { "rep_stos_alternative", "clear_user", RCX_DOWN } },
	/* 6.1-6.3 out-of-line clear_user flavours: (dst in rdi, length in rcx). */
	{ "clear_user_*", { NULL, "clear_user", RCX_DOWN } },
	/* <= 6.0: __clear_user(addr, size) in C. */
	{ "__clear_user", { "__clear_user", "clear_user", { FLOW_RSI, FLOW_RDI, false } } },
	/* <= 6.3: copy_user_generic_{unrolled,string}, copy_user_enhanced_fast_string (edx). */
	{ "copy_user_*", { NULL, "copy_user", RDX_DST } },
	{ "__copy_user_nocache", { "__copy_user_nocache", "copy_user", RDX_DST } },
};

/* copy_user_* and clear_user_* also match helpers that are no copy routines. */
static const char *const not_routines[] = { "folio", "page", "offload", "flushcache" };

/* Whole-page routines: always 4 KiB, so no threshold to tune; kept out unless --leaf. */
static const char *const excluded[] = { "clear_page_erms", "clear_page_rep", "clear_page_orig",
					"copy_page", "copy_page_regs", "copy_mc_to_kernel" };

static char **extra;
static size_t nr_extra;
static struct copyfam_leaf extra_leaf = { NULL, "leaf", RDX_DST };
/* Leaves matched by a pattern carry their own name; one static slot per call is enough. */
static __thread struct copyfam_leaf pattern_hit;

int copyfam_add_leaf(const char *symbol)
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

size_t copyfam_extra_leaves(const char *const **names)
{
	*names = (const char *const *)extra;
	return nr_extra;
}

void copyfam_reset(void)
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

const struct copyfam_leaf *copyfam_lookup(const char *symbol)
{
	size_t i, j, n;

	if (!symbol)
		return NULL;
	if (is_extra(symbol)) {
		pattern_hit = extra_leaf;
		pattern_hit.canonical = symbol;
		return &pattern_hit;
	}
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const char *name = table[i].name;

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

bool copyfam_excluded(const char *symbol)
{
	size_t i;

	if (!symbol || is_extra(symbol))
		return false;
	for (i = 0; i < sizeof(excluded) / sizeof(excluded[0]); i++)
		if (!strcmp(excluded[i], symbol))
			return true;
	return false;
}

const char *copyfam_inline_name(int width, bool movs)
{
	static const char *const names[2][4] = {
		{ "inline_rep_stosb", "inline_rep_stosw", "inline_rep_stosd", "inline_rep_stosq" },
		{ "inline_rep_movsb", "inline_rep_movsw", "inline_rep_movsd", "inline_rep_movsq" },
	};
	int i = width == 8 ? 3 : width == 4 ? 2 : width == 2 ? 1 : 0;

	return names[movs][i];
}

const char *copyfam_inline_family(bool movs)
{
	return movs ? "movs" : "stos";
}

bool copyfam_is_inline(const char *leaf)
{
	return leaf && !strncmp(leaf, "inline_rep_", 11);
}
