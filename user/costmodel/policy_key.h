/* SPDX-License-Identifier: GPL-2.0 */
/* policy_key.h: what a policy is, as a typed key ({kind, threshold}), and its one display name */
#ifndef CP_POLICY_KEY_H
#define CP_POLICY_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A policy: today's code, the string op at every length, a threshold (the string op from T on;
 * POLICY_NEVER: never), or the oracle (the cheaper implementation at every length). Rows of an
 * estimate and of a stored measurement are joined by this key, never by their display names;
 * the name ("today", "always", "T=512", "never", "oracle") is for people and for the JSON,
 * which stores it and is parsed back here.
 *
 * Adding a threshold policy kind: a value here, its name in policy_key.c, its costing in
 * estimate_cost.c (est_policy_cost), its replay path in measure/paired_plan.c, and its glibc
 * advice in estimate_verdict.c if it can be shipped (docs/design.md#policies).
 */
enum policy_kind { POLICY_TODAY, POLICY_ALWAYS, POLICY_THRESHOLD, POLICY_ORACLE };
#define POLICY_NEVER UINT64_MAX /* a POLICY_THRESHOLD that never runs the string op */

struct policy_key {
	enum policy_kind kind;
	uint64_t threshold; /* POLICY_THRESHOLD only; 0 otherwise */
};

/* The same policy: the same kind, and for a threshold the same threshold. */
bool policy_key_same(const struct policy_key *a, const struct policy_key *b);
/* The display name into @buf (at least POLICY_NAME_LEN bytes): "T=512", "never", "today". */
#define POLICY_NAME_LEN 24
const char *policy_key_name(const struct policy_key *k, char *buf, size_t len);
/* Parses a display name back into @k: 0, or -EINVAL for anything else ("T=0x10", "T=-1"). */
int policy_key_parse(const char *name, struct policy_key *k);

#endif
