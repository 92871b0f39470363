/* SPDX-License-Identifier: GPL-2.0 */
/* profile_dispatch.h: the copy dispatch a profile's kernel ran, kept in its meta (and read back) */
#ifndef CP_PROFILE_DISPATCH_H
#define CP_PROFILE_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "lib/host.h"
#include "sites/dispatch.h"

/* For lengths [min, max] (max DISPATCH_NO_MAX: no bound), this code ran. */
struct profile_dispatch_row {
	uint64_t min, max;
	char *code;	 /* "memcpy_orig", "memcpy_erms", "__memcpy (inline)" ... */
	char *string_op; /* "rep movsb" ..., or NULL for loop code */
};

struct profile_dispatch_entry {
	char *routine; /* memcpy | memmove | memset | clear_user | copy_user */
	char *source;  /* "kcore" (decoded live), "table", or "derived" (see below) */
	struct profile_dispatch_row rows[DISPATCH_MAX_ROWS];
	size_t nr_rows;
};

/*
 * meta.dispatch (docs/profile-format.md#dispatch). A profile recorded before it existed has
 * none; profile_dispatch_derive() then rebuilds it from the meta's kernel and CPU flags by the
 * dispatch table, with source "derived".
 */
struct profile_dispatch {
	struct profile_dispatch_entry e[CF_NR_ROUTINES];
	size_t nr;
};

/* A copy of the live (or table) dispatch @d; NULL on allocation failure. */
struct profile_dispatch *profile_dispatch_from(const struct dispatch *d);
/* The table's dispatch for @m's kernel and CPU flags, source "derived"; NULL if @m has no
 * kernel version, its CPU flags are unknown (cpu_flags_unknown), or on allocation failure. */
struct profile_dispatch *profile_dispatch_derive(const struct host_meta *m);
void profile_dispatch_free(struct profile_dispatch *pd);

/* The entry of @routine ("memcpy" ...), or NULL. */
const struct profile_dispatch_entry *profile_dispatch_find(const struct profile_dispatch *pd,
							   const char *routine);
/*
 * What an entry runs, in one line: the code when one code covers every length
 * ("memcpy_orig"), else each range ("0-63: rep_movs_alternative; >= 64: rep movsb").
 */
void profile_dispatch_summary(const struct profile_dispatch_entry *e, char *buf, size_t len);
/*
 * The entry as the dispatch table's type (strings borrowed from @e), for copy_paths.c's
 * replica choice.
 */
void profile_dispatch_entry_view(const struct profile_dispatch_entry *e,
				 struct dispatch_entry *out);

json_object *profile_dispatch_to_json(const struct profile_dispatch *pd);
/* Reads meta.dispatch; NULL if absent or malformed (unknown parts skipped). */
struct profile_dispatch *profile_dispatch_from_json(json_object *arr);

#endif
