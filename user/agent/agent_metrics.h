/* SPDX-License-Identifier: GPL-2.0 */
/* agent_metrics.h: the agent's own health in /metrics: sites by state, cost, scrapes, re-plans */
#ifndef CP_AGENT_METRICS_H
#define CP_AGENT_METRICS_H

#include "agent_budget.h"
#include "agent_http.h"
#include "agent_sites.h"
#include "agent_traced.h"
#include "export/metric_writer.h"

struct agent_health {
	const struct agent_sites *sites;
	const struct agent_budget *budget;
	const struct agent_traced *traced;
	struct agent_http_stats http;
	double start_time;    /* seconds since the epoch */
	double last_scrape_s; /* how long the previous /metrics took */
	unsigned long long replans;
	const char *cpu_flags; /* "erms,fsrm": estimate --prometheus needs them for today's code */
	const char *cgroup;    /* --cgroup, or NULL */
};

/* Writes the health families into @w (the caller closes it). */
void agent_metrics_put(struct metric_writer *w, const struct agent_health *h);

#endif
