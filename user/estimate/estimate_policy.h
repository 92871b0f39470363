/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_policy.h: the policies estimate compares: today, always, each threshold, an oracle */
#ifndef CP_ESTIMATE_POLICY_H
#define CP_ESTIMATE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "estimate_options.h"

/* today, always, every threshold, oracle */
#define EST_MAX_POLICIES (EST_MAX_THRESHOLDS + 3)

/* A row's policy: its typed key (costmodel/policy_key.h), and its display name, for people. */
struct est_policy {
	enum policy_kind kind;
	uint64_t threshold;	    /* POLICY_THRESHOLD: the string op from this length on */
	char name[POLICY_NAME_LEN]; /* policy_key_name() of the two above */
};

/* @p's key: what joins its row to a stored measurement's. */
static inline struct policy_key est_policy_key(const struct est_policy *p)
{
	return (struct policy_key){ p->kind, p->kind == POLICY_THRESHOLD ? p->threshold : 0 };
}

/* The policy of @kind (and @threshold, for POLICY_THRESHOLD), named by policy_key_name(). */
struct est_policy est_policy_of(enum policy_kind kind, uint64_t threshold);

/* Today, always, @o's thresholds in order, the oracle: *@np (at most EST_MAX_POLICIES) in @pol. */
void est_policies_make(const struct est_options *o, struct est_policy *pol, size_t *np);

/* What glibc takes for a threshold tunable, and what the process ran with. */
struct est_glibc_range {
	uint64_t today; /* in force (the today row's threshold) */
	uint64_t dflt;	/* glibc's default for this CPU */
	uint64_t min, max;
	bool strict_min; /* x86_rep_movsb_threshold takes values above min only; stosb from min */
};

/*
 * glibc's policies (docs/estimate.md#glibc): today (@g->today, the threshold in force, costed
 * as the threshold it is), then, in order, every value glibc accepts of @o's --thresholds
 * (*@refused: those it would ignore), or by default glibc's least accepted value, 1024 to 32768
 * in powers of two, glibc's default and never; --at's; the oracle. No "always": no tunable runs
 * the string op at every length.
 */
void est_policies_make_glibc(const struct est_options *o, const struct est_glibc_range *g,
			     struct est_policy *pol, size_t *np, size_t *refused);

#endif
