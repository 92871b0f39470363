/* SPDX-License-Identifier: GPL-2.0 */
/* asmref_glibc.h: the glibc 2.36 memmove/memset replicas' thresholds, and which one glibc runs */
#ifndef ASMREF_GLIBC_H
#define ASMREF_GLIBC_H

#include <stdbool.h>
#include <stdint.h>

#include "asmref.h"
#include "asmref_cpu.h"
#include "glibc_knobs_layout.h"

/*
 * The thresholds the glibc_memmove_* and glibc_memset_* replicas read on every call, as glibc
 * keeps them in __x86_rep_movsb_threshold and friends. Process global: change them between
 * calls, not while another thread copies. See docs/asm-ref.md#glibc-236-memmove-and-memset.
 */
struct asmref_glibc_knobs {
	uint64_t rep_movsb_threshold;	   /* rep movsb for n > this (and n > 2*VEC) */
	uint64_t rep_movsb_stop_threshold; /* ... and n < this */
	uint64_t non_temporal_threshold;   /* streaming stores above this (no overlap) */
	uint64_t rep_stosb_threshold;	   /* memset: rep stosb for n > this */
	uint32_t string_control;	   /* KNOB_AVOID_SHORT_DISTANCE_REP_MOVSB */
	uint32_t pad;
};

/* glibc 2.36's bound on the non-temporal threshold (x86_non_temporal_threshold min/max). */
#define ASMREF_GLIBC_NT_MIN 0x4040ull
#define ASMREF_GLIBC_NT_MAX 0x0fffffffffffffffull

/*
 * Sets the thresholds. non_temporal_threshold is kept within [ASMREF_GLIBC_NT_MIN,
 * ASMREF_GLIBC_NT_MAX], the range glibc accepts: the replica's 4-page loop needs at least
 * 16 KiB, and 16 x the threshold must not overflow. Any rep_movsb_threshold is taken; one
 * below 8*VEC (which glibc refuses) acts as 8*VEC. UINT64_MAX means "never".
 */
void asmref_glibc_set_knobs(const struct asmref_glibc_knobs *k);
void asmref_glibc_get_knobs(struct asmref_glibc_knobs *k);
/*
 * The values glibc 2.36 ran with on the reference machine (AMD Zen 4 with FSRM, under KVM,
 * measured): T 0x840, stop 0x100000 (its L2), non-temporal 0xf000000, stosb 0x800, no
 * short-distance rule; also the values before any asmref_glibc_set_knobs(). A machine's own
 * come from the tunables in force (user/lib/glibc_tunables.h, from ld.so --list-tunables).
 */
void asmref_glibc_default_knobs(struct asmref_glibc_knobs *k);
/*
 * The thresholds glibc rows run with (asmref_prepare()) and that a policy changes only one of
 * (asmref_set_knob()): glibc's reference defaults until set, e.g. to a profile's in force.
 */
void asmref_glibc_set_base(const struct asmref_glibc_knobs *k);
void asmref_glibc_get_base(struct asmref_glibc_knobs *k);

enum asmref_glibc_func {
	ASMREF_GLIBC_MEMMOVE, /* memmove, memcpy, mempcpy (one selector) */
	ASMREF_GLIBC_MEMSET,
};

/* What glibc 2.36 picks for a function on a CPU, and our replica of it. */
struct asmref_glibc_choice {
	const char *glibc_symbol;	   /* "__memmove_avx512_unaligned_erms" */
	const struct asmref_impl *replica; /* NULL: not replicated (SSE2, ERMS-only, no-ERMS ...) */
	const char *why;		   /* the rule that decided, for messages and docs */
	int vec;			   /* the vector size in bytes */
};

/*
 * glibc 2.36's selection (ifunc-memmove.h, ifunc-memset.h and the preferences init_cpu_features
 * sets), as docs/asm-ref.md#which-implementation-glibc-picks writes it down. GLIBC_TUNABLES
 * glibc.cpu.hwcaps masks are not applied: a profile names the implementation it probed
 * (asmref_glibc_replica_of()).
 */
void asmref_glibc_choose(const struct asmref_cpu *c, enum asmref_glibc_func f,
			 struct asmref_glibc_choice *out);
/*
 * The same for glibc 2.@minor: ifunc-memmove.h and the Intel and AMD preferences of
 * init_cpu_features read the same at the 2.36 and 2.41 tags; ifunc-memset.h from 2.40 on also
 * takes the _erms form without ERMS where Avoid_Non_Temporal_Memset is clear, which is not
 * modelled (glibc_symbol NULL, why says). Where glibc decides by Intel's per-model
 * Fast_Unaligned_Copy (SSSE3 without AVX2), glibc_symbol is NULL too.
 */
void asmref_glibc_choose_in(const struct asmref_cpu *c, enum asmref_glibc_func f,
			    unsigned int minor, struct asmref_glibc_choice *out);

/*
 * The replica of a glibc implementation symbol: "__memmove_avx512_unaligned_erms" and its
 * aliases "__memcpy_...", "__mempcpy_...", "__memmove_chk_..." -> glibc_memmove_avx512. NULL
 * if the symbol is no implementation we replicate.
 */
const struct asmref_impl *asmref_glibc_replica_of(const char *glibc_symbol);
/* The vector size in bytes of a glibc replica (glibc_memmove_avx512: 64), 0 if not one. */
int asmref_glibc_vec(const struct asmref_impl *replica);

#endif /* ASMREF_GLIBC_H */
