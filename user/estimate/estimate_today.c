// SPDX-License-Identifier: GPL-2.0
/* estimate_today.c: today's code of a family, from facts only: --today, the probe, the kernel */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "asmref.h"
#include "asmref_glibc.h"
#include "profile/profile_glibc.h"
#include "estimate_today.h"
#include "lib/log.h"

int est_today_of(const struct est_input *in, enum est_family f, const char *given,
		 struct copy_path *today)
{
	const struct est_family_impls *fi = est_family(f);
	const char *fn = NULL;
	size_t i;

	memset(today, 0, sizeof(*today));
	if (given) {
		today->impl = asmref_find(given) ? asmref_find(given)->name : fi->loop;
		snprintf(today->why, sizeof(today->why), "given with --today");
		return 0;
	}
	for (i = 0; i < in->nr_sites; i++) {
		if (in->sites[i].family != f)
			continue;
		if (!in->sites[i].user) {
			fn = NULL;
			break;
		}
		fn = fn ?: in->sites[i].symbol ?: "?";
	}
	if (!fn) {
		if (copy_path_today(fi->name, &in->meta, today) == -ENODATA) {
			p_err("%s: today's code of %s is unknown: %s; say what this kernel runs "
			      "with "
			      "--today IMPL (e.g. --today movsb on a CPU with FSRM, --today "
			      "memcpy_orig without; copyprof calibrate --help lists them)",
			      in->name, fi->name, today->why);
			return -ENOENT;
		}
		return 0;
	}
	if (asmref_glibc_replica_of(fn)) {
		today->impl = asmref_glibc_replica_of(fn)->name;
		snprintf(today->why, sizeof(today->why),
			 "the probed function %.60s is glibc's code", fn);
		return 0;
	}
	if (!asmref_find(fn)) {
		p_err("%s: the %s sites are uprobes on %s, whose code copyprof does not replicate: "
		      "say what it runs with --today IMPL (an asm-ref replica, e.g. libc_memcpy "
		      "for "
		      "a function that calls glibc's memcpy; copyprof calibrate --help lists them)",
		      in->name, fi->name, fn);
		return -ENOENT;
	}
	today->impl = asmref_find(fn)->name;
	snprintf(today->why, sizeof(today->why), "the probed function %.40s is this replica", fn);
	return 0;
}

uint64_t est_today_knob(const struct est_input *in, const struct est_family_impls *fi, bool *known)
{
	const struct profile_glibc *g = in->glibc;
	struct asmref_glibc_knobs k;
	bool movsb = fi->string_op && !strcmp(fi->string_op, "REP MOVSB");

	*known = g != NULL;
	if (g)
		return movsb ? g->rep_movsb_threshold.value : g->rep_stosb_threshold.value;
	asmref_glibc_default_knobs(&k);
	return movsb ? k.rep_movsb_threshold : k.rep_stosb_threshold;
}
