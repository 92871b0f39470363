/* SPDX-License-Identifier: GPL-2.0 */
/* agent_sample.h: the agent's sampling (record_sample.c's recorder, live): --sample, the plan's fallback */
#ifndef CP_AGENT_SAMPLE_H
#define CP_AGENT_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "profile/profile.h"
#include "record/record_plan.h"
#include "record/record_sample.h"

/* What the agent samples; NULL rec: nothing. */
struct agent_sampler {
	struct record_sample_args sa;
	void *rec;			  /* record_sample.h's recorder, recording */
	struct record_plan_sampled *want; /* a mixed plan: only these functions; NULL: all */
	struct record_plan_fallback fb;	  /* a plan sampled instead (record_plan.h) */
	char **order; /* the sampled sites' keys, first seen first: their ids stay put */
	size_t nr_order;
};

/*
 * Decides as record does: @want_sample (--sample) samples every copy sample; a plan none of
 * whose sites could be probed (@nr_counted 0) is sampled instead, scoped to its functions; a
 * plan with @sampled functions samples them beside the counted sites. Says which in the log.
 * Then prepares and opens the recorder for @tgid/@comm at @hz. 0 also when nothing is to be
 * sampled; -errno (printed) when sampling was needed and failed.
 */
int agent_sample_start(struct agent_sampler *s, bool want_sample, uint32_t hz, uint32_t tgid,
		       const char *comm, const struct record_plan_args *plan, int nr_counted,
		       struct record_plan_sampled *sampled);
/* With the view's lock: drains the ring buffer (never waits). */
int agent_sample_drain(struct agent_sampler *s);
/*
 * With the view's lock, after the counted sites are read: appends the sampled sites so far
 * (ids first seen, first numbered) and the sample meta. agent_sample_trim() takes them away
 * once the snapshot is rendered.
 */
int agent_sample_append(struct agent_sampler *s, struct profile *view);
void agent_sample_trim(struct profile *view, size_t nr_counted);
void agent_sample_stop(struct agent_sampler *s);

#endif
