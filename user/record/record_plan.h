/* SPDX-License-Identifier: GPL-2.0 */
/* record_plan.h: turn -p PRESET, --site and --entry into probe sites through the planner */
#ifndef CP_RECORD_PLAN_H
#define CP_RECORD_PLAN_H

#include <stdbool.h>
#include "probe_site.h"

#define RECORD_PLAN_MAX 64

struct record_plan_args {
	const char *presets[RECORD_PLAN_MAX];
	int nr_presets;
	const char *sites[RECORD_PLAN_MAX];
	int nr_sites;
	const char *entries[RECORD_PLAN_MAX];
	int nr_entries;
	const char *vmlinux;
	bool sample_all; /* --all: a fallback to sampling keeps every copy sample */
};

/*
 * The functions of the sites no probe can take: record samples them in the same session.
 * @entry: the site is the function's entry (a copy routine): its own samples are kept, not
 * those of copies it calls.
 */
struct record_plan_sampled {
	char *func[CP_MAX_SITES]; /* "[MODULE:]FUNC", owned */
	bool entry[CP_MAX_SITES];
	size_t nr;
};

static inline int record_plan_wanted(const struct record_plan_args *a)
{
	return a->nr_presets + a->nr_sites + a->nr_entries;
}

/*
 * Plans every requested site, prints the plan (mechanism and reason per site, the coverage
 * and each mechanism's cost) on stderr and appends the sites that can be attached to @out (at
 * most @max in all); the functions of the others go to @sampled (may be NULL). Returns how
 * many were appended (0: nothing here can be probed), or -errno when planning itself failed.
 */
int record_plan_sites(const struct record_plan_args *a, struct probe_site *out, int *nr, int max,
		      struct record_plan_sampled *sampled);
void record_plan_sampled_free(struct record_plan_sampled *s);

/*
 * The kernel functions the plan names (the presets' items, --site and --entry), without
 * module, offset or len=, each once: the scope of the sampling it falls back to. Returns how
 * many, or -errno (printed); free with record_plan_functions_free().
 */
int record_plan_functions(const struct record_plan_args *a, char ***out, size_t *nr);
void record_plan_functions_free(char **v, size_t nr);

#endif
