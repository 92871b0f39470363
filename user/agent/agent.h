/* SPDX-License-Identifier: GPL-2.0 */
/* agent.h: `copyprof agent`: record without end and serve the live counters over HTTP */
#ifndef CP_AGENT_H
#define CP_AGENT_H

#include <stdint.h>
#include "kernel/cgroup.h"
#include "record/probe_site.h"
#include "record/record_plan.h"

#define AGENT_DEFAULT_REPLAN_S 60.0

struct agent_args {
	struct record_plan_args plan; /* -p, --site, --entry: planned as record plans them */
	struct probe_site *sites;     /* --uprobe, --kprobe, --hwbp as parsed; taken */
	int nr_sites;
	uint32_t pid;	  /* --pid; 0: every process */
	const char *comm; /* --comm */
	/* --cgroup (repeatable): cgroup v2 directories, their tasks and below */
	const char *cgroups[CP_MAX_CGROUP_FILTERS];
	int nr_cgroups;
	const char *listen;	 /* ADDR:PORT */
	const char *web_config;	 /* exporter-toolkit web.config.yml, or NULL */
	const char *host;	 /* the host label; NULL: the hostname */
	double max_overhead_pct; /* of one CPU; 0: no budget */
	double replan_s;	 /* between periodic re-plans; 0: only on SIGHUP */
	bool keep_privileges;	 /* do not drop capabilities after attaching */
	bool sample;		 /* --sample: every copy-family sample, served live */
	bool by_cgroup;		 /* --cgroups, or --cgroup: copyprof_site_cgroup_calls */
	uint32_t hz;		 /* --sample=HZ; 0: record's default */
};

/*
 * Plans and attaches every site (one that fails never stops the others), samples what the
 * plan cannot probe (or everything with --sample) as record does, serves /metrics,
 * /profile and /debug/pprof/profile until SIGTERM or SIGINT, re-plans on SIGHUP and every
 * replan_s, and detaches the hottest site whenever its cost goes over the budget. Returns an
 * exit status (log.h): 0 after a signal, 1 when it cannot start, 2 for a bad listen address.
 */
int agent_run(struct agent_args *a);

#endif
