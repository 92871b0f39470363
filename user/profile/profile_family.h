/* SPDX-License-Identifier: GPL-2.0 */
/* profile_family.h: the copy family of a site read from a profile written before sites had one */
#ifndef CP_PROFILE_FAMILY_H
#define CP_PROFILE_FAMILY_H

#include "profile.h"

/*
 * What a site without "family" is, by the rule copyprof applied before writers stored it
 * (docs/profile-format.md#families): a symbol naming memmove, memset, clear_user or rep_stos
 * is of that family, a length in the second argument (arg1: the reader renumbers older
 * profiles' arguments first) is clear_user-like, and anything else is memcpy. The profile
 * reader calls it once per such site; nothing else guesses from a name.
 */
enum copy_family profile_family_infer(const struct profile_site *s);

#endif
