/* SPDX-License-Identifier: GPL-2.0 */
/* agent_budget.h: the agent's own cost (BPF run time and its CPU time) against --max-overhead */
#ifndef CP_AGENT_BUDGET_H
#define CP_AGENT_BUDGET_H

#include <stdbool.h>
#include <stdint.h>
#include "record/hist_session.h"

#define AGENT_BUDGET_DEFAULT_PCT 1.0
#define AGENT_BUDGET_WINDOW_S 2.0

struct agent_budget {
	double limit;	 /* a fraction of one CPU (--max-overhead / 100) */
	bool bpf_stats;	 /* the kernel counts the programs' run time */
	int stats_fd;	 /* BPF_ENABLE_STATS keeps counting while open */
	double t0;	 /* the window's start (monotime_s) */
	uint64_t bpf_ns; /* at the window's start */
	double cpu_s;	 /* the agent's user + system time at the window's start */
	/* Totals and the last window, for /metrics. */
	uint64_t bpf_ns_total, bpf_runs_total;
	double cpu_s_total;
	double last;	  /* the last full window's cost, a fraction of one CPU */
	double last_bpf;  /* ... of which the BPF programs' run time (0 when not measured) */
	uint64_t actions; /* sites detached for the budget */
	bool own_warned;  /* the agent's own work was said to be over the budget */
};

/* Turns BPF statistics on (says so when the kernel refuses) and starts the first window. */
void agent_budget_start(struct agent_budget *b, double pct, struct hist_session *hs);
/*
 * Closes the window once AGENT_BUDGET_WINDOW_S have passed: true when its cost was over the
 * limit (then *@bpf_ns_window is what the programs ran in it).
 */
bool agent_budget_over(struct agent_budget *b, struct hist_session *hs, uint64_t *bpf_ns_window);
/*
 * Whether the sites are to blame for the last window over the limit: their BPF run time alone
 * is over the limit, or is at least the part over it (taking them away brings it under). The
 * agent's own work (scrapes, re-plans, draining samples) is not the sites' to pay for, and
 * without BPF statistics a site's cost is not known: then never.
 */
bool agent_budget_sites_to_blame(const struct agent_budget *b);
/* Refreshes the totals without closing a window (for a scrape). */
void agent_budget_totals(struct agent_budget *b, struct hist_session *hs);
void agent_budget_stop(struct agent_budget *b);

#endif
