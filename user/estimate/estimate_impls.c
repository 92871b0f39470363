// SPDX-License-Identifier: GPL-2.0
/* estimate_impls.c: the replicas a family's policies run, chosen by the code that runs today */
#include <stdio.h>
#include <string.h>
#include "asmref.h"
#include "estimate_impls.h"

#define MAX_GLIBC 16

/* One glibc policy set per glibc knob replica, made from the registry once. */
static struct est_family_impls glibc_sets[MAX_GLIBC];
static size_t nr_glibc;

static void make_glibc_sets(void)
{
	size_t i;

	for (i = 0; i < asmref_count() && nr_glibc < MAX_GLIBC; i++) {
		const struct asmref_impl *a = asmref_get(i), *loop, *string;
		bool movsb = a->knob == ASMREF_KNOB_GLIBC_MOVSB;

		if (a->base || (!movsb && a->knob != ASMREF_KNOB_GLIBC_STOSB))
			continue;
		/* Its loop and its string op: the registry's variants of it (impls.def). */
		loop = asmref_variant(a->name, UINT64_MAX);
		string = asmref_variant(a->name, 0);
		if (!loop || !string)
			continue; /* a set only where both exist (the RTM forms have none) */
		glibc_sets[nr_glibc++] = (struct est_family_impls){
			.name = a->family,
			.loop = loop->name,
			.string = string->name,
			.dispatch = NULL, /* the compare is in every policy's code alike */
			.string_op = movsb ? "REP MOVSB" : "REP STOSB",
			.has_src = movsb,
			.knob = a->name,
			.glibc = true,
			.tunable = movsb ? "glibc.cpu.x86_rep_movsb_threshold"
					 : "glibc.cpu.x86_rep_stosb_threshold",
		};
	}
}

const struct est_family_impls *est_impls_for(enum copy_family f, const char *today_impl)
{
	size_t i;

	if (!nr_glibc)
		make_glibc_sets();
	for (i = 0; today_impl && i < nr_glibc; i++)
		if (!strcmp(glibc_sets[i].knob, today_impl))
			return &glibc_sets[i];
	return est_family(f);
}
