/* SPDX-License-Identifier: GPL-2.0 */
/* merge.h: sum profiles into one, kept apart by kernel and CPU (docs/profile-format.md#groups) */
#ifndef CP_MERGE_H
#define CP_MERGE_H

#include <stddef.h>
#include "profile.h"

/*
 * Sums @n profiles (merged ones too) into a new profile. Profiles of one kernel and CPU (model
 * and flags) form a group; sites of a group are matched by target, symbol, offset, mechanism
 * and length register, never by address. Groups and sites are sorted, so the result does not
 * depend on the order of the inputs, and merging merged profiles gives what merging their
 * inputs at once gives. Returns 0, -ENOMEM, -EINVAL (no group), or -EOVERFLOW (printed,
 * naming the field) when a sum of counts passes 2^64 - 1 or a duration leaves the doubles.
 */
int merge_profiles(struct profile *const *in, size_t n, struct profile **out);

#endif
