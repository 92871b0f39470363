/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_policy.h: the policies estimate compares: today, always, each threshold, an oracle */
#ifndef CP_ESTIMATE_POLICY_H
#define CP_ESTIMATE_POLICY_H

#include <stddef.h>
#include <stdint.h>
#include "estimate_options.h"

/* today, always, every threshold, oracle */
#define EST_MAX_POLICIES (EST_MAX_THRESHOLDS + 3)

enum est_kind { EST_TODAY, EST_ALWAYS, EST_THRESHOLD, EST_ORACLE };

struct est_policy {
	enum est_kind kind;
	uint64_t
		threshold; /* EST_THRESHOLD: the string op from this length on (EST_NEVER: never) */
	char name[24];	   /* "today", "always", "T=2048", "never", "oracle" */
};

/* Today, always, @o's thresholds in order, the oracle: *@np (at most EST_MAX_POLICIES) in @pol. */
void est_policies_make(const struct est_options *o, struct est_policy *pol, size_t *np);

#endif
