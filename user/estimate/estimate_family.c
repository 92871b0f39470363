// SPDX-License-Identifier: GPL-2.0
/* estimate_family.c: the copy families estimate costs, by name and by a profile site's family */
#include <string.h>
#include "estimate_family.h"
#include "lib/regs.h"
#include "profile/profile.h"

/* The names are the one table's (sites/copy_family.h). */
static const struct est_family_impls families[EST_NR_FAMILIES] = {
	[CF_MEMCPY] = { copy_family_names[CF_MEMCPY], "memcpy_orig", "movsb", "erms_threshold",
			"REP MOVSB", true, "erms_threshold" },
	[CF_MEMMOVE] = { copy_family_names[CF_MEMMOVE], "memmove_orig", "memmove_erms", NULL,
			 "REP MOVSB", true },
	[CF_CLEAR_USER] = { copy_family_names[CF_CLEAR_USER], "rep_stos_alternative", "rep_stosb",
			    NULL, "REP STOSB", false },
	[CF_MEMSET] = { copy_family_names[CF_MEMSET], "memset_orig", "stosb", NULL, "REP STOSB",
			false },
};

const struct est_family_impls *est_family(enum copy_family f)
{
	return &families[(unsigned int)f < EST_NR_FAMILIES ? f : CF_MEMCPY];
}

/* What a family is costed as: copy_user and inline rep movs as memcpy, inline rep stos as memset. */
static enum copy_family costed_as(enum copy_family f)
{
	switch (f) {
	case CF_MEMMOVE:
		return CF_MEMMOVE;
	case CF_MEMSET:
	case CF_STOS:
		return CF_MEMSET;
	case CF_CLEAR_USER:
		return CF_CLEAR_USER;
	default:
		return CF_MEMCPY;
	}
}

int est_family_parse(const char *s)
{
	enum copy_family f = copy_family_parse(s);

	/* Only the four that estimate compares are names of a choice. */
	if (f != CF_MEMCPY && f != CF_MEMMOVE && f != CF_CLEAR_USER && f != CF_MEMSET)
		return -1;
	return (int)costed_as(f);
}

enum copy_family est_site_family(const struct profile_site *s)
{
	/* The site's own family (profile.h; a reader infers it for older profiles). */
	return costed_as(s->family);
}
