/* SPDX-License-Identifier: GPL-2.0 */
/* profile_site_json.h: one site of a profile read from its JSON object and checked */
#ifndef CP_PROFILE_SITE_JSON_H
#define CP_PROFILE_SITE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "profile.h"

/*
 * Appends the site @o describes to @p: its buckets (lo, hi, count and bytes checked,
 * docs/profile-format.md#limits), alignments, callers, family (inferred for an older profile,
 * profile_family.h) and the rest; @name is the file, for messages. Its "group", which indexes
 * the profile's groups, is left to the caller: *@group, and whether there is one in
 * *@has_group. 0, or -errno (printed, but for -ENOMEM).
 */
int profile_site_from_json(json_object *o, struct profile *p, const char *name, uint64_t *group,
			   bool *has_group);

#endif
