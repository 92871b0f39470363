/* SPDX-License-Identifier: GPL-2.0 */
/* asmref_ceiling.h: the loops whose speed is this CPU's ceiling, and the empty call */
#ifndef ASMREF_CEILING_H
#define ASMREF_CEILING_H

#include <stdbool.h>
#include <stddef.h>
#include "asmref.h"

/*
 * What calibrate measures this machine's limits with (docs/calibrate.md#measured-limits): the
 * fastest way this CPU has to store, and to copy, bytes that sit in L1. Not replicas of any
 * routine and not in impls.def's registry: four vector stores (or loads and stores) an
 * iteration at each width (ceiling_loop.inc), and REP STOSB / REP MOVSB, whose rows are the
 * registry's stosb and movsb. The loops need @n a multiple of ASMREF_CEILING_STEP.
 */
struct asmref_ceiling_loop {
	const char *loop; /* "avx512", "avx2", "sse2", "rep_stosb", "rep_movsb" */
	bool copies;	  /* a copy (COPY kind); else a store-only loop (CLEAR or SET) */
	const struct asmref_impl *impl; /* called through calib_loop() as a replica is */
};

/* Every length a loop is run on is a multiple of this (four 64-byte vectors). */
#define ASMREF_CEILING_STEP 256

/* The @i-th loop, widest vectors first, or NULL past the end (asmref_usable(): which run here). */
const struct asmref_ceiling_loop *asmref_ceiling_get(size_t i);

/* A COPY-kind call that copies nothing (returns dst): what a call costs by itself. */
const struct asmref_impl *asmref_ceiling_empty(void);

#endif /* ASMREF_CEILING_H */
