/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_report_sort.h: `copyprof report --sort comm,pid,site,caller`: copies grouped by who and where */
#ifndef CP_REPORT_SORT_H
#define CP_REPORT_SORT_H

#include <stdbool.h>
#include <stdio.h>
#include "profile/profile.h"

enum report_key { REPORT_KEY_COMM, REPORT_KEY_PID, REPORT_KEY_SITE, REPORT_KEY_CALLER };
#define REPORT_MAX_KEYS 4

struct report_sort {
	enum report_key keys[REPORT_MAX_KEYS];
	size_t nr_keys;
};

/* Parses "comm,pid" (as perf report --sort): 0, or -EINVAL with the reason in @why. */
int report_sort_parse(const char *text, struct report_sort *s, char *why, size_t len);
/*
 * One row per value of the keys, most first, with its samples (sampled sites) or calls
 * (counted sites, for site and caller) and share, in text or (@json) JSON. @top rows per table
 * (0: all). Returns 0, or -EINVAL (said) when the profile holds nothing the keys can split:
 * comm and pid need sampled sites, which keep who took each stack.
 */
int report_sort_print(FILE *f, const struct profile *p, const struct report_sort *s, int top,
		      bool json);

#endif
