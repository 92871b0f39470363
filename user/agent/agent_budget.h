/* SPDX-License-Identifier: GPL-2.0 */
/* agent_budget.h: the agent's cost (traced processes' traps, BPF run time, its CPU) against --max-overhead */
#ifndef CP_AGENT_BUDGET_H
#define CP_AGENT_BUDGET_H

#include <stdbool.h>
#include <stdint.h>
#include "record/hist_session.h"

#define AGENT_BUDGET_DEFAULT_PCT 1.0
#define AGENT_BUDGET_WINDOW_S 2.0
/* The budget holds the cost over the last windows, so that a burst of hits is not a site's end. */
#define AGENT_BUDGET_SPAN 5

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
	/* The last AGENT_BUDGET_SPAN windows' cost: what --max-overhead holds. */
	double last;	      /* all of it, a fraction of one CPU */
	double last_bpf;      /* ... of which the BPF programs' run time (0 when not measured) */
	double last_traced;   /* ... the traps the traced processes paid (agent_traced.h) */
	double last_wall;     /* the span's length, s */
	uint64_t last_bpf_ns; /* BPF run time in it */
	double window_wall;   /* the last window's length alone, s */
	struct {
		double wall, cpu_s, traced_s;
		uint64_t bpf_ns;
	} win[AGENT_BUDGET_SPAN];
	unsigned int nr_win, next_win;
	uint64_t actions; /* sites detached for the budget */
	bool own_warned;  /* the agent's own work was said to be over the budget */
};

/* Turns BPF statistics on (says so when the kernel refuses) and starts the first window. */
void agent_budget_start(struct agent_budget *b, double pct, struct hist_session *hs);
/* Whether AGENT_BUDGET_WINDOW_S have passed since the window started. */
bool agent_budget_window_due(const struct agent_budget *b);
/*
 * Closes the window: its cost is the BPF run time, the agent's CPU time and @traced_ns, the
 * traps the traced processes paid for the sites' hits in it (agent_traced_window()). True
 * when the cost over the last AGENT_BUDGET_SPAN windows is over the limit.
 */
bool agent_budget_close(struct agent_budget *b, struct hist_session *hs, double traced_ns);
/*
 * Whether the sites are to blame for the last span over the limit: what they cost (their
 * BPF run time and their hits' traps) alone is over the limit, or is at least the part over
 * it (taking them away brings it under). The agent's own work (scrapes, re-plans, draining
 * samples) is not the sites' to pay for.
 */
bool agent_budget_sites_to_blame(const struct agent_budget *b);
/* Refreshes the totals without closing a window (for a scrape). */
void agent_budget_totals(struct agent_budget *b, struct hist_session *hs);
void agent_budget_stop(struct agent_budget *b);

#endif
