// SPDX-License-Identifier: GPL-2.0
/* knobs.c: the thresholds replicas read at run time, set for a row or a policy */
#include "asmref.h"
#include "asmref_glibc.h"

/* glibc's thresholds besides the one a policy sets: its defaults unless told the machine's. */
static struct asmref_glibc_knobs base_knobs;
static int have_base;

void asmref_glibc_set_base(const struct asmref_glibc_knobs *k)
{
	base_knobs = *k;
	have_base = 1;
}

void asmref_glibc_get_base(struct asmref_glibc_knobs *k)
{
	if (!have_base)
		asmref_glibc_default_knobs(k);
	else
		*k = base_knobs;
}

void asmref_set_knob(const struct asmref_impl *impl, uint64_t t)
{
	struct asmref_glibc_knobs k;

	switch (impl->knob) {
	case ASMREF_KNOB_NONE:
		break;
	case ASMREF_KNOB_ERMS_T:
		asmref_set_threshold(t);
		break;
	case ASMREF_KNOB_GLIBC_MOVSB:
	case ASMREF_KNOB_GLIBC_STOSB:
		asmref_glibc_get_base(&k);
		if (impl->knob == ASMREF_KNOB_GLIBC_MOVSB)
			k.rep_movsb_threshold = t;
		else
			k.rep_stosb_threshold = t;
		asmref_glibc_set_knobs(&k);
		break;
	}
}

void asmref_prepare(const struct asmref_impl *impl)
{
	struct asmref_glibc_knobs k;

	if (impl->base) {
		asmref_set_knob(impl, impl->knob_value);
	} else if (impl->knob == ASMREF_KNOB_GLIBC_MOVSB || impl->knob == ASMREF_KNOB_GLIBC_STOSB) {
		asmref_glibc_get_base(&k);
		asmref_glibc_set_knobs(&k);
	}
}
