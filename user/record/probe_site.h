/* SPDX-License-Identifier: GPL-2.0 */
/* probe_site.h: one place to count copies: where it is, how it is probed, and its resolution */
#ifndef CP_PROBE_SITE_H
#define CP_PROBE_SITE_H

#include <stdbool.h>
#include <stdint.h>
#include "hist_session.h"
#include "profile/profile.h"
#include "target_spec.h"

enum probe_mech { MECH_UPROBE, MECH_KPROBE, MECH_HWBP };

struct probe_site {
	enum probe_mech mech;
	struct target_spec spec; /* path = ELF file (uprobe) or module (kernel), may be NULL */
	char *resolved_path;	 /* uprobe: the ELF file found */
	uint64_t file_offset;	 /* uprobe: where in the file */
	uint64_t vaddr;		 /* uprobe: symbol + offset as a link address (DWARF) */
	uint64_t file_dev;	 /* uprobe: the file attached (st_dev, st_ino; uprobe_redeploy.h) */
	uint64_t file_ino;
	uint64_t func_lo, func_hi; /* uprobe: the function holding it, as file offsets; 0 unknown */
	bool callers_off;	   /* an entry site that is told to count no callers (record) */
	uint64_t kaddr;		   /* kernel: the instruction's address (hwbp) */
	enum copy_family family;   /* what the copies here are (the planner's, or the entry's) */
	char *note;		   /* why this mechanism was chosen, for the summary */
};

const char *probe_mech_name(enum probe_mech m);
/*
 * A site of @mech at @text (target_spec.h: a user or a kernel form), of the family of a probe
 * at its symbol's entry (copy_family_of_probe()); -EINVAL, why in @err.
 */
int probe_site_parse(struct probe_site *s, enum probe_mech mech, const char *text, char *err,
		     size_t errlen);
/* Finds the file offset (uprobe) or kernel address (hwbp); prints why it cannot. */
int probe_site_resolve(struct probe_site *s);
/*
 * A site at a function's first instruction (kernel or uprobe): the return address on the
 * stack is its caller; unless told to count none (callers_off).
 */
bool probe_site_counts_callers(const struct probe_site *s);
/* Whose stack that return address is on: enum cp_caller_stack (CP_CALLER_NONE if none). */
int probe_site_caller_stack(const struct probe_site *s);
/* Attaches as site @id (a uprobe: file_dev and file_ino say which file); prints why it cannot. */
int probe_site_attach(struct probe_site *s, struct hist_session *hs, uint32_t id);
/*
 * Copies the site's identity (target, symbol, offset, mechanism, len_arg, family) into @out,
 * and for a uprobe its source position when the file has DWARF (srcline.h).
 */
void probe_site_describe(const struct probe_site *s, struct profile_site *out);
void probe_site_free(struct probe_site *s);

#endif
