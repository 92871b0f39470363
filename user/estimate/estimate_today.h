/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_today.h: today's code of a family, from facts only: --today, the probe, the kernel */
#ifndef CP_ESTIMATE_TODAY_H
#define CP_ESTIMATE_TODAY_H

#include <stdbool.h>
#include <stdint.h>
#include "estimate_family.h"
#include "estimate_input.h"
#include "sites/copy_paths.h"

/*
 * Today's code of family @f of @in, from facts only (docs/estimate.md#families): @given (the
 * --today replica) if set; else, for a family whose sites are all uprobes in a program, the
 * probed function when it is code copyprof replicates (an asm-ref replica, by its name); else
 * the kernel's live dispatch for the input's kernel and CPU flags. A user-space function of
 * unknown code is never guessed from its name (a glibc "..._erms" runs a vector loop below its
 * threshold, not REP MOVSB): -ENOENT, printed, asking for --today; so are kernel sites whose
 * CPU flags are unknown (import-perf of another host's perf.data): never assumed absent.
 * Returns 0 or -ENOENT.
 */
int est_today_of(const struct est_input *in, enum est_family f, const char *given,
		 struct copy_path *today);
/*
 * glibc's threshold the profile's process ran with, for policy set @fi (glibc's): meta.glibc's
 * in force (*@known), else glibc 2.36's reference default (*@known false: assumed).
 */
uint64_t est_today_knob(const struct est_input *in, const struct est_family_impls *fi, bool *known);

#endif
