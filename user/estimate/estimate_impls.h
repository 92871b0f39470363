/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_impls.h: the replicas a family's policies run, chosen by the code that runs today */
#ifndef CP_ESTIMATE_IMPLS_H
#define CP_ESTIMATE_IMPLS_H

#include "estimate_family.h"

/*
 * The policy set of family @f when today's code is @today_impl (an asm-ref name): the kernel's
 * (est_family(@f): its loop below T, its string op from T, the seed's dispatch replica) or,
 * when today's code is a replica of glibc's memmove or memset (docs/estimate.md#glibc), glibc's:
 * that replica's vector code below T (the `_vec` row), its REP MOVSB or REP STOSB above T (the
 * `_movsb`/`_stosb` row), its own threshold as the knob, no "always".
 */
const struct est_family_impls *est_impls_for(enum copy_family f, const char *today_impl);

#endif
