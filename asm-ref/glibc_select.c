// SPDX-License-Identifier: GPL-2.0
/* glibc_select.c: glibc's choice of memmove and memset implementation (2.36-2.41), our replicas */
#include <stdio.h>
#include <string.h>

#include "asmref_glibc.h"

/* An implementation glibc names __<func>_<variant>; replica NULL if we have none. */
struct variant {
	enum asmref_glibc_func func;
	const char *suffix; /* "avx512_unaligned_erms" */
	const char *name;   /* "__memmove_avx512_unaligned_erms" */
	const char *replica;
	int vec;
};

#define MOVE(suffix, replica, vec)                                                                 \
	{                                                                                          \
		ASMREF_GLIBC_MEMMOVE, suffix, "__memmove_" suffix, replica, vec                    \
	}
#define SET(suffix, replica, vec)                                                                  \
	{                                                                                          \
		ASMREF_GLIBC_MEMSET, suffix, "__memset_" suffix, replica, vec                      \
	}

static const struct variant variants[] = {
	MOVE("avx512_unaligned_erms", "glibc_memmove_avx512", 64),
	MOVE("avx512_unaligned", NULL, 64),
	MOVE("avx512_no_vzeroupper", NULL, 64),
	MOVE("evex_unaligned_erms", "glibc_memmove_evex", 32),
	MOVE("evex_unaligned", NULL, 32),
	MOVE("avx_unaligned_erms_rtm", "glibc_memmove_avx2_rtm", 32),
	MOVE("avx_unaligned_rtm", NULL, 32),
	MOVE("avx_unaligned_erms", "glibc_memmove_avx2", 32),
	MOVE("avx_unaligned", NULL, 32),
	MOVE("sse2_unaligned_erms", NULL, 16),
	MOVE("sse2_unaligned", NULL, 16),
	MOVE("ssse3", NULL, 16),
	MOVE("erms", NULL, 0),
	SET("avx512_unaligned_erms", "glibc_memset_avx512", 64),
	SET("avx512_unaligned", NULL, 64),
	SET("avx512_no_vzeroupper", NULL, 64),
	SET("evex_unaligned_erms", "glibc_memset_evex", 32),
	SET("evex_unaligned", NULL, 32),
	SET("avx2_unaligned_erms_rtm", "glibc_memset_avx2_rtm", 32),
	SET("avx2_unaligned_rtm", NULL, 32),
	SET("avx2_unaligned_erms", "glibc_memset_avx2", 32),
	SET("avx2_unaligned", NULL, 32),
	SET("sse2_unaligned_erms", NULL, 16),
	SET("sse2_unaligned", NULL, 16),
	SET("erms", NULL, 0),
};

#define NR_VARIANTS (sizeof(variants) / sizeof(variants[0]))

/* The glibc function names one code serves, as prefixes of its implementation symbols. */
static const struct {
	const char *prefix;
	enum asmref_glibc_func func;
} prefixes[] = {
	{ "__memmove_chk_", ASMREF_GLIBC_MEMMOVE }, { "__memcpy_chk_", ASMREF_GLIBC_MEMMOVE },
	{ "__mempcpy_chk_", ASMREF_GLIBC_MEMMOVE }, { "__memmove_", ASMREF_GLIBC_MEMMOVE },
	{ "__memcpy_", ASMREF_GLIBC_MEMMOVE },	    { "__mempcpy_", ASMREF_GLIBC_MEMMOVE },
	{ "__memset_chk_", ASMREF_GLIBC_MEMSET },   { "__memset_", ASMREF_GLIBC_MEMSET },
};

static const struct variant *find_variant(enum asmref_glibc_func f, const char *suffix)
{
	size_t i;

	for (i = 0; i < NR_VARIANTS; i++)
		if (variants[i].func == f && !strcmp(variants[i].suffix, suffix))
			return &variants[i];
	return NULL;
}

const struct asmref_impl *asmref_glibc_replica_of(const char *glibc_symbol)
{
	const struct variant *v;
	size_t i, n;

	if (!glibc_symbol)
		return NULL;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		n = strlen(prefixes[i].prefix);
		if (strncmp(glibc_symbol, prefixes[i].prefix, n))
			continue;
		v = find_variant(prefixes[i].func, glibc_symbol + n);
		return v && v->replica ? asmref_find(v->replica) : NULL;
	}
	return NULL;
}

int asmref_glibc_vec(const struct asmref_impl *replica)
{
	size_t i;

	for (i = 0; replica && i < NR_VARIANTS; i++)
		if (variants[i].replica && !strcmp(variants[i].replica, replica->name))
			return variants[i].vec;
	return 0;
}

/* Sets @out to __<func>_<suffix>, with the rule that chose it. */
static void pick(enum asmref_glibc_func f, const char *suffix, const char *why,
		 struct asmref_glibc_choice *out)
{
	const struct variant *v = find_variant(f, suffix);

	out->glibc_symbol = v ? v->name : NULL;
	out->replica = v && v->replica ? asmref_find(v->replica) : NULL;
	out->vec = v ? v->vec : 0;
	out->why = why;
}

void asmref_glibc_choose(const struct asmref_cpu *c, enum asmref_glibc_func f,
			 struct asmref_glibc_choice *out)
{
	asmref_glibc_choose_in(c, f, 36, out);
}

void asmref_glibc_choose_in(const struct asmref_cpu *c, enum asmref_glibc_func f,
			    unsigned int minor, struct asmref_glibc_choice *out)
{
	/*
	 * init_cpu_features' preferences, Intel only (2.36 and 2.41 alike): AVX-512 frequency
	 * drops make glibc avoid zmm registers unless the CPU also has AVX-VNNI (Sapphire Rapids
	 * on) or is a Xeon Phi (AVX512ER, which instead avoids vzeroupper, as RTM does: it aborts
	 * transactions). AMD sets neither, so Zen 4 and Zen 5 run the AVX-512 code.
	 */
	bool no_avx512 = c->intel && !c->avx512er && !c->avx_vnni;
	bool no_vzeroupper = c->intel && (c->avx512er || c->rtm);
	/* memset's EVEX forms use masked byte stores (AVX512BW) built with bzhi (BMI2). */
	bool evex_ok = c->avx512vl && (f == ASMREF_GLIBC_MEMMOVE || (c->avx512bw && c->bmi2));

	*out = (struct asmref_glibc_choice){ 0 };
	if (f == ASMREF_GLIBC_MEMSET && minor >= 40 && !c->erms) {
		/* 2.40 on: memset's _erms forms also when Avoid_Non_Temporal_Memset is clear. */
		out->why = "glibc 2.40+ memset without ERMS: its _erms form or not by the "
			   "Avoid_Non_Temporal_Memset preference (not modelled)";
		return;
	}
	if (c->avx512f && !no_avx512) {
		if (evex_ok)
			pick(f, c->erms ? "avx512_unaligned_erms" : "avx512_unaligned",
			     "AVX-512F usable and preferred (not Intel, or Intel with AVX-VNNI), "
			     "AVX-512VL",
			     out);
		else
			pick(f, "avx512_no_vzeroupper", "AVX-512F without AVX-512VL (Xeon Phi)",
			     out);
		return;
	}
	if (c->avx2) {
		if (evex_ok)
			pick(f, c->erms ? "evex_unaligned_erms" : "evex_unaligned",
			     c->avx512f ? "AVX2 and AVX-512VL; zmm avoided (Intel without AVX-VNNI)"
					: "AVX2 and AVX-512VL",
			     out);
		else if (c->rtm)
			pick(f,
			     f == ASMREF_GLIBC_MEMSET
				     ? (c->erms ? "avx2_unaligned_erms_rtm" : "avx2_unaligned_rtm")
				     : (c->erms ? "avx_unaligned_erms_rtm" : "avx_unaligned_rtm"),
			     "AVX2 and RTM, no AVX-512VL", out);
		else if (!no_vzeroupper)
			pick(f,
			     f == ASMREF_GLIBC_MEMSET
				     ? (c->erms ? "avx2_unaligned_erms" : "avx2_unaligned")
				     : (c->erms ? "avx_unaligned_erms" : "avx_unaligned"),
			     "AVX2, no AVX-512VL, no RTM", out);
		if (out->why)
			return;
		/* AVX2 with vzeroupper avoided: on to the SSE rules, as glibc falls through. */
	}
	if (f == ASMREF_GLIBC_MEMMOVE && c->ssse3 && c->amd) {
		/* AMD never sets Fast_Unaligned_Copy (Intel sets it by model: not modelled). */
		pick(f, "ssse3", "no AVX2, SSSE3, AMD (no Fast_Unaligned_Copy)", out);
		return;
	}
	if (f == ASMREF_GLIBC_MEMMOVE && c->ssse3) {
		/* ssse3 unless glibc's Fast_Unaligned_Copy preference, which this does not model. */
		out->why = "no AVX2, SSSE3: __memmove_ssse3 or __memmove_sse2_unaligned[_erms] "
			   "(glibc's Fast_Unaligned_Copy preference decides; not modelled)";
		out->vec = 16;
		return;
	}
	pick(f, c->erms ? "sse2_unaligned_erms" : "sse2_unaligned", "no AVX2", out);
}
