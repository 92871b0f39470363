/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_family.h: the copy families estimate compares: each one's loop and string op */
#ifndef CP_ESTIMATE_FAMILY_H
#define CP_ESTIMATE_FAMILY_H

#include <stdbool.h>
#include "sites/copy_family.h"

struct profile_site;

/*
 * estimate costs four of the copy families (sites/copy_family.h, the one family enum):
 * CF_MEMCPY, CF_MEMMOVE, CF_MEMSET and CF_CLEAR_USER, the first four, so that arrays over the
 * costed families are indexed by the family itself. Every other family is costed as one of them
 * (est_site_family()).
 */
#define EST_NR_FAMILIES (CF_CLEAR_USER + 1)
_Static_assert(CF_MEMCPY == 0 && CF_MEMMOVE < EST_NR_FAMILIES && CF_MEMSET < EST_NR_FAMILIES,
	       "the costed families are copy_family's first four");

/* What a family's policies are built from: "the loop below T, the string op from T". */
struct est_family_impls {
	const char *name;      /* "memcpy" */
	const char *loop;      /* below T: "memcpy_orig" */
	const char *string;    /* from T: "movsb" */
	const char *dispatch;  /* replica of the loop/string dispatch ("erms_threshold"), or NULL */
	const char *string_op; /* "REP MOVSB" */
	bool has_src;	       /* false: the src-flushed state does not apply (costed as warm) */
	/* The replica whose threshold is a run-time knob, for the paired replay (asmref_set_knob():
	 * "erms_threshold"; glibc's own replica), or NULL: the two switched in C */
	const char *knob;
	/* glibc's policies: the string op for n > T (not from T), the knob's tunable, and no
	 * "always" (no tunable runs the string op at every length) */
	bool glibc;
	const char *tunable; /* "glibc.cpu.x86_rep_movsb_threshold" */
};

const struct est_family_impls *est_family(enum copy_family f);
/* -1 if @s names no family. */
int est_family_parse(const char *s);
/* What est_family_parse() takes, for a usage message. */
#define EST_FAMILY_HINT "give memcpy, memmove, clear_user or memset"
/* The family a profile site belongs to (docs/estimate.md#families). */
enum copy_family est_site_family(const struct profile_site *s);

#endif
