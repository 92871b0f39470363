// SPDX-License-Identifier: GPL-2.0
/* record_share.c: the traced program's CPU time sampled: how much of it its copies take */
#include <string.h>
#include "lib/log.h"
#include "record_share.h"

bool record_share_start(struct hist_session *hs, const struct probe_site *sites, int nr)
{
	struct share_range set[CP_SHARE_RANGES];
	uint32_t n = 0, j;
	int i;

	if (!hist_session_share_loaded(hs))
		return false;
	for (i = 0; i < nr && n < CP_SHARE_RANGES; i++) {
		const struct probe_site *s = &sites[i];

		if (s->mech != MECH_UPROBE || !s->file_ino || !s->func_hi)
			continue;
		for (j = 0; j < n; j++)
			if (set[j].ino == s->file_ino && set[j].lo == s->func_lo)
				break;
		if (j < n)
			continue;
		set[n] = (struct share_range){ .ino = s->file_ino,
					       .lo = s->func_lo,
					       .hi = s->func_hi };
		if (hist_session_share_range(hs, n, set[n].ino, set[n].lo, set[n].hi))
			return false;
		n++;
	}
	if (!n) {
		p_debug("no uprobe site in a sized function: the copy-time share is not sampled");
		return false;
	}
	return !hist_session_share_start(hs, RECORD_SHARE_HZ);
}

void record_share_finish(struct hist_session *hs, struct host_meta *m)
{
	uint64_t c[CP_NR_SHARE];

	if (hist_session_share_read(hs, c) || !(c[CP_SHARE_COPY] + c[CP_SHARE_OWN]))
		return;
	m->copy_share = (struct copy_share){ .known = true,
					     .hz = RECORD_SHARE_HZ,
					     .copy = c[CP_SHARE_COPY],
					     .own = c[CP_SHARE_OWN],
					     .trap = c[CP_SHARE_TRAP] };
}
