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

/* What a plan that cannot probe anything records instead (record_plan_fallback()). */
struct record_plan_fallback {
	char why[256];	 /* the warning, and the profile's meta.sample_fallback */
	unsigned int hz; /* the sampling rate per CPU */
	bool every_task; /* always: the kernel copies for a process in kworkers too */
	char **keep;	 /* the plan's functions: only stacks through them; NULL: all */
	size_t nr_keep;
};

/*
 * The planner's last resort, decided here for record and the agent alike: when @a asked for
 * sites (-p, --site, --entry) and none of them can be attached (@nr_counted 0), sample
 * instead, at @hz per CPU (0: RECORD_SAMPLE_DEFAULT_HZ), every task, keeping only the stacks
 * through the plan's functions unless @a->sample_all. @widen_option names the caller's option
 * that keeps every stack ("--all"), for the warning; NULL when it has none. Returns 1 with
 * @fb filled and the warning printed, 0 when there is nothing to fall back from, or -errno
 * (printed). Free @fb with record_plan_fallback_free().
 */
int record_plan_fallback(const struct record_plan_args *a, int nr_counted, unsigned int hz,
			 const char *widen_option, struct record_plan_fallback *fb);
void record_plan_fallback_free(struct record_plan_fallback *fb);

#endif
