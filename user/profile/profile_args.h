/* SPDX-License-Identifier: GPL-2.0 */
/* profile_args.h: how a profile numbers arguments (len_arg), and lengths that look like pointers */
#ifndef CP_PROFILE_ARGS_H
#define CP_PROFILE_ARGS_H

#include <stdbool.h>
#include <json-c/json.h>
#include "profile.h"

/*
 * "arg_base" in the meta: the number of the first argument in every site's len_arg. copyprof
 * writes 0 (arg0 is the first argument, as in bpftrace); profiles without it counted from 1
 * (arg1 the first) and are renumbered when read (docs/profile-format.md#arguments).
 */
#define PROFILE_ARG_BASE 0

/* Adds "arg_base" to the meta object @meta. */
void profile_args_to_json(json_object *meta);
/*
 * @meta's "arg_base" into @base (absent, or no @meta: 1). -EINVAL (printed, naming @name) for
 * one other than 0 or 1.
 */
int profile_args_base(json_object *meta, const char *name, int *base);
/* Renumbers @p's sites' len_arg from @base to PROFILE_ARG_BASE. 0 or -ENOMEM. */
int profile_args_renumber(struct profile *p, int base);

/*
 * True if most of counted site @s's lengths are at least 2^40 (the overflow bucket): not
 * lengths but pointers, which is what len=argN reads when N names the wrong argument.
 */
bool profile_site_len_suspect(const struct profile_site *s);
/*
 * Warns (p_warn) once per suspect site of @p, naming it and what to check; returns how many.
 */
size_t profile_warn_len_suspects(const struct profile *p);

#endif
