/* SPDX-License-Identifier: GPL-2.0 */
/* record_counted.h: `copyprof record` at probe sites: every call's length counted in BPF */
#ifndef CP_RECORD_COUNTED_H
#define CP_RECORD_COUNTED_H

#include <stdbool.h>
#include <stddef.h>
#include "probe_site.h"
#include "record_plan.h"
#include "record_run.h"

struct record_counted_args {
	struct record_run_args run; /* all but all_tasks, which the sites decide */
	struct probe_site *sites;   /* as parsed or planned; resolved here, then freed */
	int nr_sites;
	/* --cgroup (repeatable): count only their tasks and those below them; none: any */
	const char *const *cgroups;
	int nr_cgroups;
	bool by_cgroup; /* --cgroups (or --cgroup): calls by cgroup per site (profile_cgroup.h) */
	const char *const *debuginfo; /* kernel DWARF for the sites' lines (ksource.h) */
	/* Functions of the plan no probe can take: sampled at @hz in the same recording. */
	const struct record_plan_sampled *sampled; /* NULL or empty: no sampling */
	uint32_t hz;
	size_t nr_debuginfo;
	bool no_callers; /* --no-callers: entry sites count no callers */
	/*
	 * --callers: uprobe entry sites count their callers too. Off by default: exact callers
	 * cost a uprobe's program two hash lookups and a read of user memory per call, which
	 * took it from under bpftrace's hist() to above it (docs/benchmarks.md#callers).
	 */
	bool user_callers;
};

/*
 * Resolves and attaches every site, counts until the recording ends and writes the profile
 * (record_run.h); with kernel sites, COMMAND's recording counts every task. Frees the sites.
 * Returns an exit status (log.h).
 */
int record_counted_run(const struct record_counted_args *a);

#endif
