/* SPDX-License-Identifier: GPL-2.0 */
/* profile_glibc.h: the glibc thresholds a recorded process copied with, kept in its meta */
#ifndef CP_PROFILE_GLIBC_H
#define CP_PROFILE_GLIBC_H

#include <json-c/json.h>
#include <stdint.h>
#include "lib/glibc_tunables.h"

/*
 * meta.glibc: written by record when a uprobe is on one of glibc's memmove or memset
 * implementations (docs/profile-format.md#glibc). The thresholds are what `ld.so
 * --list-tunables` printed with the recorded process's GLIBC_TUNABLES (its value, and the
 * range it accepts), and with none (glibc's default for this CPU): estimate's "today" for
 * glibc's policies, and the values it may propose.
 */
struct profile_glibc {
	char *ldso;	/* the loader asked */
	char *tunables; /* GLIBC_TUNABLES of the process ("": none), or NULL: not known */
	struct glibc_tunable rep_movsb_threshold, rep_stosb_threshold; /* in force */
	uint64_t movsb_default, stosb_default;			       /* without GLIBC_TUNABLES */
};

json_object *profile_glibc_to_json(const struct profile_glibc *g);
/* NULL (and a message naming @where) if @o is not a complete meta.glibc. */
struct profile_glibc *profile_glibc_from_json(json_object *o, const char *where);
struct profile_glibc *profile_glibc_dup(const struct profile_glibc *g);
void profile_glibc_free(struct profile_glibc *g);

#endif
