/* SPDX-License-Identifier: GPL-2.0 */
/* agent_traced.h: what the traced processes pay for the agent's probes, per site and in all */
#ifndef CP_AGENT_TRACED_H
#define CP_AGENT_TRACED_H

#include <stdbool.h>
#include <stdint.h>
#include "agent_sites.h"
#include "record/trap_cost.h"

/*
 * A probe's hit costs the traced thread a trap (and the BPF run), time the agent's own CPU
 * and BPF run time never see. Each mechanism in use is measured on this host (trap_cost.h)
 * once it has attached sites, at the start or at a re-plan, or read from this boot's cache;
 * each site's hits in a budget window, priced at that, are its estimated cost to the traced
 * processes.
 */
struct agent_traced {
	struct trap_cost cost[TRAP_COST_NR_MECHS];
	bool in_use[TRAP_COST_NR_MECHS];
	uint64_t hits_runs;    /* all programs' runs at the window's start (BPF statistics) */
	double last_ns;	       /* the last window's estimated cost, ns */
	double total_ns;       /* since the start */
	uint64_t unattributed; /* hits no site counted (filtered out by --pid/--comm/--cgroup) */
};

/*
 * Measures (or reads from this boot's cache) the trap of every mechanism an attached site uses
 * that this run has not priced yet, and says what it found; @bpf_apart: the BPF run time is
 * counted (the budget's statistics), so a figure with the BPF run inside the trap won't do.
 */
void agent_traced_measure(struct agent_traced *tr, const struct agent_sites *t, bool bpf_apart);
/*
 * Closes a budget window: each site's hits since the last call (one lookup a site) priced at
 * its mechanism's cost into its window_cost_ns and cost_ns_total; with BPF statistics
 * (@runs: every program's runs so far, @runs_known), hits of tasks the filter left out are
 * priced too, at the busiest mechanism's cost. Returns the window's estimated cost, ns.
 */
double agent_traced_window(struct agent_traced *tr, struct agent_sites *t, uint64_t runs,
			   bool runs_known);
/* Per hit of @m, the trap and the BPF run together (0: not measured). */
double agent_traced_hit_ns(const struct agent_traced *tr, enum probe_mech m);

#endif
