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
	/* in force; .present: read from ldso (else only the version below is known) */
	struct glibc_tunable rep_movsb_threshold, rep_stosb_threshold;
	uint64_t movsb_default, stosb_default; /* without GLIBC_TUNABLES */
	unsigned int major, minor; /* the version of the mapped libc; 0.0 not recorded */
	char *release;	/* its banner's release words ("Debian GLIBC 2.41-12"), or NULL */
	char *build_id; /* its GNU build id in hex, or NULL */
	char *libc;	/* the libc file probed, as record opened it, or NULL */
	char *root;	/* the process's root directory ("/" or a chroot's, as the host names it) */
};

json_object *profile_glibc_to_json(const struct profile_glibc *g);
/* NULL (and a message naming @where) if @o is not a complete meta.glibc. */
struct profile_glibc *profile_glibc_from_json(json_object *o, const char *where);
struct profile_glibc *profile_glibc_dup(const struct profile_glibc *g);
void profile_glibc_free(struct profile_glibc *g);

#endif
