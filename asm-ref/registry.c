// SPDX-License-Identifier: GPL-2.0
/* Table of implementations expanded from impls.def, lookup and a kind-agnostic call helper. */
#include <string.h>

#include "asmref.h"

static const struct asmref_impl asmref_table[] = {
#define IMPL_KNOB(n, fam, k, req, kn, desc)                                                        \
	{ .name = #n,                                                                              \
	  .family = #fam,                                                                          \
	  .description = desc,                                                                     \
	  .kind = ASMREF_##k,                                                                      \
	  .fn = asmref_##n,                                                                        \
	  .needs = (req),                                                                          \
	  .knob = ASMREF_KNOB_##kn },
#define IMPL_VARIANT(n, b, fam, k, req, kn, value, desc)                                           \
	{ .name = #n,                                                                              \
	  .family = #fam,                                                                          \
	  .description = desc,                                                                     \
	  .kind = ASMREF_##k,                                                                      \
	  .fn = asmref_##b,                                                                        \
	  .needs = (req),                                                                          \
	  .knob = ASMREF_KNOB_##kn,                                                                \
	  .base = #b,                                                                              \
	  .knob_value = (value) },
#define IMPL_NEEDS(n, fam, k, req, desc) IMPL_KNOB(n, fam, k, req, NONE, desc)
#define IMPL(n, fam, k, desc) IMPL_NEEDS(n, fam, k, 0, desc)
#include "impls.def"
#undef IMPL
#undef IMPL_NEEDS
#undef IMPL_KNOB
#undef IMPL_VARIANT
};

#define ASMREF_TABLE_LEN (sizeof(asmref_table) / sizeof(asmref_table[0]))

size_t asmref_count(void)
{
	return ASMREF_TABLE_LEN;
}

const struct asmref_impl *asmref_get(size_t i)
{
	return i < ASMREF_TABLE_LEN ? &asmref_table[i] : NULL;
}

const struct asmref_impl *asmref_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < ASMREF_TABLE_LEN; i++)
		if (!strcmp(asmref_table[i].name, name))
			return &asmref_table[i];
	return NULL;
}

const struct asmref_impl *asmref_variant(const char *base, uint64_t knob_value)
{
	size_t i;

	for (i = 0; base && i < ASMREF_TABLE_LEN; i++)
		if (asmref_table[i].base && !strcmp(asmref_table[i].base, base) &&
		    asmref_table[i].knob_value == knob_value)
			return &asmref_table[i];
	return NULL;
}

const char *asmref_kind_name(enum asmref_kind kind)
{
	switch (kind) {
	case ASMREF_COPY:
		return "COPY";
	case ASMREF_COPY_USER:
		return "COPY_USER";
	case ASMREF_CLEAR:
		return "CLEAR";
	case ASMREF_SET:
		return "SET";
	}
	return "?";
}

void asmref_set_threshold(uint64_t t)
{
	/* Read by erms_threshold.S on every call; volatile keeps the store in place. */
	*(volatile uint64_t *)&asmref_erms_threshold_T = t;
}

void asmref_run(const struct asmref_impl *impl, void *dst, const void *src, size_t n)
{
	switch (impl->kind) {
	case ASMREF_COPY:
		((asmref_copy_fn *)impl->fn)(dst, src, n);
		break;
	case ASMREF_COPY_USER:
		((asmref_copy_user_fn *)impl->fn)(dst, src, n);
		break;
	case ASMREF_CLEAR:
		((asmref_clear_fn *)impl->fn)(dst, n);
		break;
	case ASMREF_SET:
		((asmref_set_fn *)impl->fn)(dst, 0, n);
		break;
	}
}
