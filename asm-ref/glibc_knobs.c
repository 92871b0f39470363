// SPDX-License-Identifier: GPL-2.0
/* glibc_knobs.c: the thresholds the glibc replicas read on every call, and their setters */
#include <stddef.h>
#include <string.h>

#include "asmref_glibc.h"

_Static_assert(offsetof(struct asmref_glibc_knobs, rep_movsb_threshold) == KNOB_REP_MOVSB_THRESHOLD,
	       "glibc_knobs_layout.h");
_Static_assert(offsetof(struct asmref_glibc_knobs, rep_movsb_stop_threshold) ==
		       KNOB_REP_MOVSB_STOP_THRESHOLD,
	       "glibc_knobs_layout.h");
_Static_assert(offsetof(struct asmref_glibc_knobs, non_temporal_threshold) ==
		       KNOB_NON_TEMPORAL_THRESHOLD,
	       "glibc_knobs_layout.h");
_Static_assert(offsetof(struct asmref_glibc_knobs, rep_stosb_threshold) == KNOB_REP_STOSB_THRESHOLD,
	       "glibc_knobs_layout.h");
_Static_assert(offsetof(struct asmref_glibc_knobs, string_control) == KNOB_STRING_CONTROL,
	       "glibc_knobs_layout.h");
_Static_assert(sizeof(struct asmref_glibc_knobs) == KNOBS_SIZE, "glibc_knobs_layout.h");

/*
 * Measured on the reference machine (glibc 2.36-9+deb12u14, AMD EPYC Zen 4 with FSRM, under
 * KVM), from ld.so --list-tunables and the variables in libc's memory: T 0x840, stop 1 MiB
 * (the L2), non-temporal 0xf000000 (3/4 of the 320 MiB shared cache the VM reports), stosb
 * 0x800, no short-distance rule (Intel only).
 */
#define REFERENCE_KNOBS                                                                            \
	{                                                                                          \
		.rep_movsb_threshold = 0x840, .rep_movsb_stop_threshold = 0x100000,                \
		.non_temporal_threshold = 0xf000000, .rep_stosb_threshold = 0x800,                 \
		.string_control = 0,                                                               \
	}

/* Hidden: the replicas reach it PC-relative, also from a shared object. 64-byte aligned: one line. */
__attribute__((visibility("hidden"), aligned(64))) struct asmref_glibc_knobs asmref_glibc_knobs =
	REFERENCE_KNOBS;

void asmref_glibc_set_knobs(const struct asmref_glibc_knobs *k)
{
	struct asmref_glibc_knobs v = *k;

	if (v.non_temporal_threshold < ASMREF_GLIBC_NT_MIN)
		v.non_temporal_threshold = ASMREF_GLIBC_NT_MIN;
	if (v.non_temporal_threshold > ASMREF_GLIBC_NT_MAX)
		v.non_temporal_threshold = ASMREF_GLIBC_NT_MAX;
	v.pad = 0;
	/* Read by the assembly on every call; volatile keeps the stores in place. */
	memcpy((void *)(volatile void *)&asmref_glibc_knobs, &v, sizeof(v));
	__asm__ volatile("" ::: "memory");
}

void asmref_glibc_get_knobs(struct asmref_glibc_knobs *k)
{
	__asm__ volatile("" ::: "memory");
	*k = asmref_glibc_knobs;
}

void asmref_glibc_default_knobs(struct asmref_glibc_knobs *k)
{
	*k = (struct asmref_glibc_knobs)REFERENCE_KNOBS;
}
