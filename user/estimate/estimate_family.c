// SPDX-License-Identifier: GPL-2.0
/* estimate_family.c: the copy families, by name and by a profile site's symbol and family */
#include <string.h>
#include "estimate_family.h"
#include "lib/regs.h"
#include "profile/profile.h"

static const struct est_family_impls families[EST_NR_FAMILIES] = {
	[EST_MEMCPY] = { "memcpy", "memcpy_orig", "movsb", "erms_threshold", "REP MOVSB", true,
			 "erms_threshold" },
	[EST_MEMMOVE] = { "memmove", "memmove_orig", "memmove_erms", NULL, "REP MOVSB", true },
	[EST_CLEAR_USER] = { "clear_user", "rep_stos_alternative", "rep_stosb", NULL, "REP STOSB",
			     false },
	[EST_MEMSET] = { "memset", "memset_orig", "stosb", NULL, "REP STOSB", false },
};

const struct est_family_impls *est_family(enum est_family f)
{
	return &families[f < EST_NR_FAMILIES ? f : EST_MEMCPY];
}

int est_family_parse(const char *s)
{
	int f;

	for (f = 0; f < EST_NR_FAMILIES; f++)
		if (s && !strcmp(s, families[f].name))
			return f;
	return -1;
}

enum est_family est_site_family(const struct profile_site *s)
{
	const char *sym = s->symbol ? s->symbol : "";
	const char *fam = s->sample && s->sample->family ? s->sample->family : "";

	/* A sampled site names its family; copy_user and inline rep movs are costed as memcpy. */
	if (est_family_parse(fam) >= 0)
		return est_family_parse(fam);
	if (!strcmp(fam, "stos"))
		return EST_MEMSET;
	if (!strcmp(fam, "copy_user") || !strcmp(fam, "movs"))
		return EST_MEMCPY;

	if (strstr(sym, "memmove"))
		return EST_MEMMOVE;
	if (strstr(sym, "memset"))
		return EST_MEMSET;
	if (strstr(sym, "clear_user") || strstr(sym, "rep_stos"))
		return EST_CLEAR_USER;
	/* record's convention: a length in the second argument is a clear(dst, len)-like target. */
	if (reg_len_is_clear_like(s->len_arg))
		return EST_CLEAR_USER;
	return EST_MEMCPY;
}
