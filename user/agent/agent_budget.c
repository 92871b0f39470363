// SPDX-License-Identifier: GPL-2.0
/* agent_budget.c: what the agent costs: traced processes' traps, BPF run time, its own CPU time */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include "agent_budget.h"
#include "lib/log.h"
#include "lib/monotime.h"

static double cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

/* kernel.bpf_stats_enabled=1 (root set it, e.g. the unit's ExecStartPre): counted for all. */
static bool sysctl_stats_on(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	int v = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v == 1;
}

void agent_budget_totals(struct agent_budget *b, struct hist_session *hs)
{
	uint64_t ns, runs;

	if (!hist_session_run_stats(hs, &ns, &runs)) {
		b->bpf_ns_total = ns;
		b->bpf_runs_total = runs;
	}
	b->cpu_s_total = cpu_seconds();
}

void agent_budget_start(struct agent_budget *b, double pct, struct hist_session *hs)
{
	memset(b, 0, sizeof(*b));
	b->limit = pct / 100.0;
	b->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	b->bpf_stats = b->stats_fd >= 0 || sysctl_stats_on();
	if (!b->bpf_stats)
		p_warn("BPF run time is not measured (BPF_ENABLE_STATS: %s: it needs "
		       "CAP_SYS_ADMIN, or kernel.bpf_stats_enabled=1 set by root); the overhead "
		       "budget counts the traced processes' traps (BPF's run in them) and the "
		       "agent's own CPU time",
		       strerror(errno));
	agent_budget_totals(b, hs);
	b->t0 = monotime_s();
	b->bpf_ns = b->bpf_ns_total;
	b->cpu_s = b->cpu_s_total;
}

bool agent_budget_window_due(const struct agent_budget *b)
{
	return monotime_s() - b->t0 >= AGENT_BUDGET_WINDOW_S;
}

bool agent_budget_close(struct agent_budget *b, struct hist_session *hs, double traced_ns)
{
	double now = monotime_s(), wall = 0, cpu = 0, traced = 0;
	uint64_t bpf = 0;
	unsigned int i;

	agent_budget_totals(b, hs);
	b->window_wall = now - b->t0;
	b->win[b->next_win].wall = b->window_wall;
	b->win[b->next_win].bpf_ns = b->bpf_ns_total - b->bpf_ns;
	b->win[b->next_win].cpu_s = b->cpu_s_total - b->cpu_s;
	b->win[b->next_win].traced_s = traced_ns / 1e9;
	b->next_win = (b->next_win + 1) % AGENT_BUDGET_SPAN;
	if (b->nr_win < AGENT_BUDGET_SPAN)
		b->nr_win++;
	for (i = 0; i < b->nr_win; i++) {
		wall += b->win[i].wall;
		bpf += b->win[i].bpf_ns;
		cpu += b->win[i].cpu_s;
		traced += b->win[i].traced_s;
	}
	/* Before the agent started it cost nothing: a young agent's span is as long anyway. */
	if (wall < AGENT_BUDGET_SPAN * AGENT_BUDGET_WINDOW_S)
		wall = AGENT_BUDGET_SPAN * AGENT_BUDGET_WINDOW_S;
	b->last_wall = wall;
	b->last_bpf_ns = bpf;
	b->last_bpf = (double)bpf / 1e9 / wall;
	b->last_traced = traced / wall;
	b->last = b->last_bpf + b->last_traced + cpu / wall;
	b->t0 = now;
	b->bpf_ns = b->bpf_ns_total;
	b->cpu_s = b->cpu_s_total;
	return b->limit > 0 && b->last > b->limit;
}

bool agent_budget_sites_to_blame(const struct agent_budget *b)
{
	double sites = b->last_bpf + b->last_traced;

	return sites > 0 && (sites > b->limit || sites >= b->last - b->limit);
}

void agent_budget_stop(struct agent_budget *b)
{
	if (b->stats_fd >= 0)
		close(b->stats_fd);
	b->stats_fd = -1;
}
