/* SPDX-License-Identifier: GPL-2.0 */
/* record_mixed.h: a counted recording that also samples the functions no probe could take */
#ifndef CP_RECORD_MIXED_H
#define CP_RECORD_MIXED_H

#include "profile/profile.h"
#include "record_plan.h"

/*
 * Keeps, of @p's sampled sites, those of the functions in @want: a site whose caller is one
 * of them (a copy issued there, or an inline rep movs/stos in it), or whose leaf is an entry
 * of @want; drops the other sampled sites and numbers the sites again. Returns how many
 * sampled sites were kept.
 */
size_t record_mixed_keep(struct profile *p, const struct record_plan_sampled *want);

#endif
