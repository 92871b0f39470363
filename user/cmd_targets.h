/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_targets.h: what to probe (-p, --site, --entry, --uprobe, --kprobe, --hwbp, --vmlinux), one argp child */
#ifndef CP_CMD_TARGETS_H
#define CP_CMD_TARGETS_H

#include <argp.h>
#include "record/probe_site.h"
#include "record/record_plan.h"

/*
 * Where the target options go: the command's own storage. -p, --site, --entry and --vmlinux
 * fill @plan (the planner's input); --uprobe, --kprobe and --hwbp are parsed into @sites
 * (at most @max_sites, counted in *@nr_sites). The parent passes it as the child's input.
 */
struct cmd_targets {
	struct record_plan_args *plan;
	struct probe_site *sites;
	int *nr_sites;
	int max_sites;
};

/* The child's parser and options, the same for record and agent. */
extern const struct argp cmd_targets_argp;

#endif
