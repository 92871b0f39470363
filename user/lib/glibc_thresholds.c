// SPDX-License-Identifier: GPL-2.0
/* glibc_thresholds.c: glibc 2.36's rules from tunables to __x86_* thresholds */
#include <errno.h>
#include "glibc_thresholds.h"

int glibc_thresholds_in_force(const struct glibc_tunables *t, const struct asmref_cpu *cpu,
			      uint64_t amd_l2, struct asmref_glibc_knobs *out)
{
	if (!t->rep_movsb_threshold.present || !t->rep_stosb_threshold.present ||
	    !t->non_temporal_threshold.present)
		return -ENOENT;
	*out = (struct asmref_glibc_knobs){
		.rep_movsb_threshold = t->rep_movsb_threshold.value,
		.rep_stosb_threshold = t->rep_stosb_threshold.value,
		.non_temporal_threshold = t->non_temporal_threshold.value,
	};
	if (t->rep_movsb_stop_threshold.present)
		out->rep_movsb_stop_threshold = t->rep_movsb_stop_threshold.value;
	else if (cpu->amd)
		/* dl_init_cacheinfo: REP MOVSB is slow above L2 on Zen 3 ("AMD" in glibc). */
		out->rep_movsb_stop_threshold = amd_l2;
	else
		out->rep_movsb_stop_threshold = out->non_temporal_threshold;
	/* init_cpu_features, Intel only: short-distance rep movsb is slow with FSRM. */
	if (cpu->intel && cpu->fsrm)
		out->string_control = KNOB_AVOID_SHORT_DISTANCE_REP_MOVSB;
	return 0;
}

bool glibc_thresholds_accepts(const struct glibc_tunable *t, bool strict_min, uint64_t value)
{
	if (!t->present || value > t->max)
		return false;
	return strict_min ? value > t->min : value >= t->min;
}
