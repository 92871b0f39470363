// SPDX-License-Identifier: GPL-2.0
/* profile_family.c: the family of an old profile's site, inferred as copyprof did before storing it */
#include <string.h>
#include "profile_family.h"

enum copy_family profile_family_infer(const struct profile_site *s)
{
	const char *sym = s->symbol ?: "";

	if (strstr(sym, "memmove"))
		return CF_MEMMOVE;
	if (strstr(sym, "memset"))
		return CF_MEMSET;
	if (strstr(sym, "clear_user") || strstr(sym, "rep_stos"))
		return CF_CLEAR_USER;
	/* record's convention: a length in the second argument (arg1, as bpftrace numbers them,
	 * which the reader has renumbered to) is a clear(dst, len)-like target. */
	if (s->len_arg && !strcmp(s->len_arg, "arg1"))
		return CF_CLEAR_USER;
	return CF_MEMCPY;
}
