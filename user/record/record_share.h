/* SPDX-License-Identifier: GPL-2.0 */
/* record_share.h: the traced program's CPU time sampled: how much of it its copies take */
#ifndef CP_RECORD_SHARE_H
#define CP_RECORD_SHARE_H

#include "hist_session.h"
#include "lib/host.h"
#include "probe_site.h"

/* Samples a second per CPU: perf record's default frequency. */
#define RECORD_SHARE_HZ 4000

/*
 * Starts the copy-time share sampler (bpf/copy_share.h) on @hs, opened with copy_share, for
 * the functions of the uprobe sites among @sites (the first CP_SHARE_RANGES distinct ones);
 * false, and why at debug level, when there is none.
 */
bool record_share_start(struct hist_session *hs, const struct probe_site *sites, int nr);
/* The samples into @m->copy_share (known when any sample was taken). */
void record_share_finish(struct hist_session *hs, struct host_meta *m);

#endif
