// SPDX-License-Identifier: GPL-2.0
/* ceiling.c: the table of ceiling loops (asmref_ceiling.h) and the empty call */
#include "asmref_ceiling.h"

asmref_clear_fn asmref_ceiling_store_avx512, asmref_ceiling_store_avx2, asmref_ceiling_store_sse2;
asmref_copy_fn asmref_ceiling_copy_avx512, asmref_ceiling_copy_avx2, asmref_ceiling_copy_sse2;
asmref_copy_fn asmref_ceiling_empty_call;

#define CEILING_IMPL(n, fam, k, req)                                                               \
	{                                                                                          \
		.name = "ceiling_" #n, .family = #fam, .kind = ASMREF_##k,                         \
		.fn = asmref_ceiling_##n, .needs = (req),                                          \
		.description = "calibrate's ceiling loop"                                          \
	}

static const struct asmref_impl loops[] = {
	CEILING_IMPL(store_avx512, clear_user, CLEAR, ASMREF_NEEDS_AVX512F),
	CEILING_IMPL(store_avx2, clear_user, CLEAR, ASMREF_NEEDS_AVX2),
	CEILING_IMPL(store_sse2, clear_user, CLEAR, 0),
	CEILING_IMPL(copy_avx512, memcpy, COPY, ASMREF_NEEDS_AVX512F),
	CEILING_IMPL(copy_avx2, memcpy, COPY, ASMREF_NEEDS_AVX2),
	CEILING_IMPL(copy_sse2, memcpy, COPY, 0),
};

static const struct asmref_impl empty = {
	.name = "ceiling_empty",
	.family = "memcpy",
	.kind = ASMREF_COPY,
	.fn = asmref_ceiling_empty_call,
	.description = "calibrate's empty call",
};

const struct asmref_ceiling_loop *asmref_ceiling_get(size_t i)
{
	static struct asmref_ceiling_loop table[] = {
		{ "avx512", false, &loops[0] }, { "avx2", false, &loops[1] },
		{ "sse2", false, &loops[2] },	{ "rep_stosb", false, NULL },
		{ "avx512", true, &loops[3] },	{ "avx2", true, &loops[4] },
		{ "sse2", true, &loops[5] },	{ "rep_movsb", true, NULL },
	};

	if (i >= sizeof(table) / sizeof(table[0]))
		return NULL;
	/* REP STOSB and REP MOVSB are the registry's own rows: one home for each. */
	if (!table[i].impl)
		table[i].impl = asmref_find(table[i].copies ? "movsb" : "stosb");
	return &table[i];
}

const struct asmref_impl *asmref_ceiling_empty(void)
{
	return &empty;
}
