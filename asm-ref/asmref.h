/* SPDX-License-Identifier: GPL-2.0 */
/* Registry of userspace replicas of the kernel's copy/clear/set routines (see impls.def). */
#ifndef ASMREF_H
#define ASMREF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Signature of an implementation, chosen by the kind column of impls.def:
 *   COPY       void  *f(void *dst, const void *src, size_t n);  returns dst
 *   COPY_USER  size_t f(void *dst, const void *src, size_t n);  returns bytes NOT copied (0)
 *   CLEAR      size_t f(void *dst, size_t n);                   returns bytes NOT cleared (0)
 *   SET        void  *f(void *dst, int c, size_t n);            returns dst
 * memcpy-family functions do not support overlap (memcpy_orig's backward path is a
 * false-aliasing heuristic, not overlap handling); memmove-family ones do.
 */
enum asmref_kind {
	ASMREF_COPY,
	ASMREF_COPY_USER,
	ASMREF_CLEAR,
	ASMREF_SET,
};

typedef void *asmref_copy_fn(void *dst, const void *src, size_t n);
typedef size_t asmref_copy_user_fn(void *dst, const void *src, size_t n);
typedef size_t asmref_clear_fn(void *dst, size_t n);
typedef void *asmref_set_fn(void *dst, int c, size_t n);

/*
 * What a replica's instructions need beyond x86-64 (the IMPL_NEEDS rows of impls.def): on a
 * CPU without it the replica raises SIGILL, so callers check asmref_usable() first.
 */
enum asmref_needs {
	ASMREF_NEEDS_AVX2 = 1u << 0,
	ASMREF_NEEDS_AVX512F = 1u << 1,
	ASMREF_NEEDS_AVX512VL = 1u << 2,
	ASMREF_NEEDS_AVX512BW = 1u << 3,
	ASMREF_NEEDS_BMI2 = 1u << 4,
	ASMREF_NEEDS_RTM = 1u << 5,
};

#define IMPL(name, family, kind, desc) ASMREF_PROTO_##kind(asmref_##name);
#define IMPL_NEEDS(name, family, kind, needs, desc) IMPL(name, family, kind, desc)
#define IMPL_KNOB(name, family, kind, needs, knob, desc) IMPL(name, family, kind, desc)
#define IMPL_VARIANT(name, base, family, kind, needs, knob, value, desc) /* base's code */
#define ASMREF_PROTO_COPY(fn) asmref_copy_fn fn
#define ASMREF_PROTO_COPY_USER(fn) asmref_copy_user_fn fn
#define ASMREF_PROTO_CLEAR(fn) asmref_clear_fn fn
#define ASMREF_PROTO_SET(fn) asmref_set_fn fn
#include "impls.def"
#undef IMPL
#undef IMPL_NEEDS
#undef IMPL_KNOB
#undef IMPL_VARIANT

/* Threshold T of erms_threshold: n < T runs memcpy_orig, n >= T rep movsb. Default 2048. */
#define ASMREF_ERMS_THRESHOLD_DEFAULT 2048
extern uint64_t asmref_erms_threshold_T;

/* The threshold a replica reads at run time, which asmref_set_knob() sets. */
enum asmref_knob {
	ASMREF_KNOB_NONE,
	ASMREF_KNOB_ERMS_T,	 /* erms_threshold: rep movsb for n >= T */
	ASMREF_KNOB_GLIBC_MOVSB, /* glibc memmove: rep movsb for n > T (x86_rep_movsb_threshold) */
	ASMREF_KNOB_GLIBC_STOSB, /* glibc memset: rep stosb for n > T (x86_rep_stosb_threshold) */
};

struct asmref_impl {
	const char *name;   /* impls.def name, e.g. "memcpy_orig" */
	const char *family; /* "memcpy", "memmove", "clear_user" or "memset" */
	const char *description;
	enum asmref_kind kind;
	void *fn;	    /* cast to the asmref_*_fn type that kind names */
	unsigned int needs; /* enum asmref_needs bits; 0 for plain x86-64 */
	enum asmref_knob knob;
	/* An IMPL_VARIANT row: @base's code with its knob at @knob_value (UINT64_MAX: never) */
	const char *base;
	uint64_t knob_value;
};

/* Exact name match; NULL if unknown. */
const struct asmref_impl *asmref_find(const char *name);
/* Table in impls.def order (libc rows first); asmref_get() returns NULL past the end. */
size_t asmref_count(void);
const struct asmref_impl *asmref_get(size_t i);
/* The IMPL_VARIANT row of knob row @base at @knob_value (UINT64_MAX: never); NULL if none. */
const struct asmref_impl *asmref_variant(const char *base, uint64_t knob_value);
/* "COPY", "COPY_USER", "CLEAR" or "SET". */
const char *asmref_kind_name(enum asmref_kind kind);

/*
 * The enum asmref_needs bits this CPU (and operating system) provides. Tests hide some with
 * COPYPROF_TEST_HIDE_FLAGS=avx2,avx512f,avx512vl,avx512bw,bmi2,rtm (/proc/cpuinfo names).
 */
unsigned int asmref_cpu_have(void);
/* Whether @impl can run here: every one of its needs is provided. */
bool asmref_usable(const struct asmref_impl *impl);
/* "AVX-512F, AVX-512VL", for messages. Returns @buf. */
const char *asmref_needs_text(unsigned int needs, char *buf, size_t len);

/* Sets asmref_erms_threshold_T; 0 means rep movsb for every n, UINT64_MAX never. */
void asmref_set_threshold(uint64_t t);
/*
 * Sets the threshold @impl reads (its knob) to @t in @impl's own sense (erms_threshold: from
 * T; glibc: above T), the other glibc thresholds at their base values (asmref_glibc_set_base();
 * glibc's reference defaults until then). Nothing for a replica without a knob.
 */
void asmref_set_knob(const struct asmref_impl *impl, uint64_t t);
/*
 * Makes the replicas run @impl as its row says, before it is timed or checked: a variant's
 * knob at its value, a glibc row's thresholds at their base values. Knobs are process global:
 * prepare again after another row ran. Nothing for a replica without a knob.
 */
void asmref_prepare(const struct asmref_impl *impl);

/*
 * Calls impl on n bytes at dst whatever its kind: COPY and COPY_USER copy from src,
 * CLEAR and SET ignore src (SET writes 0).  The return value is dropped; callers
 * that check it call impl->fn through its asmref_*_fn type.
 */
void asmref_run(const struct asmref_impl *impl, void *dst, const void *src, size_t n);

#endif /* ASMREF_H */
