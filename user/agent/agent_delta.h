/* SPDX-License-Identifier: GPL-2.0 */
/* agent_delta.h: /debug/pprof/profile?seconds=N: what the sites counted in the last N seconds */
#ifndef CP_AGENT_DELTA_H
#define CP_AGENT_DELTA_H

#include "profile/profile.h"

/* The view's counts at one moment: every site's buckets, samples and stacks. */
struct agent_mark;

/* With the view's lock, after a read: its counts now. NULL on no memory. */
struct agent_mark *agent_mark_take(const struct profile *view);
/*
 * With the view's lock, after a later read: turns @view's counts into those since @m, and its
 * duration into @seconds. A site is matched by id and identity (target, symbol, offset, leaf):
 * one new since @m counts whole. The view is read afresh at the next request.
 */
void agent_mark_subtract(struct profile *view, const struct agent_mark *m, double seconds);
void agent_mark_free(struct agent_mark *m);

#endif
