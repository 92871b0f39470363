// SPDX-License-Identifier: GPL-2.0
/* agent_budget.c: what the agent costs: its BPF programs' run time plus its own CPU time */
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
		       "budget counts the agent's own CPU time only",
		       strerror(errno));
	agent_budget_totals(b, hs);
	b->t0 = monotime_s();
	b->bpf_ns = b->bpf_ns_total;
	b->cpu_s = b->cpu_s_total;
}

bool agent_budget_over(struct agent_budget *b, struct hist_session *hs, uint64_t *bpf_ns_window)
{
	double now = monotime_s(), wall = now - b->t0;

	if (wall < AGENT_BUDGET_WINDOW_S)
		return false;
	agent_budget_totals(b, hs);
	*bpf_ns_window = b->bpf_ns_total - b->bpf_ns;
	b->last_bpf = (double)*bpf_ns_window / 1e9 / wall;
	b->last = b->last_bpf + (b->cpu_s_total - b->cpu_s) / wall;
	b->t0 = now;
	b->bpf_ns = b->bpf_ns_total;
	b->cpu_s = b->cpu_s_total;
	return b->limit > 0 && b->last > b->limit;
}

bool agent_budget_sites_to_blame(const struct agent_budget *b)
{
	return b->bpf_stats && b->last_bpf > 0 &&
	       (b->last_bpf > b->limit || b->last_bpf >= b->last - b->limit);
}

void agent_budget_stop(struct agent_budget *b)
{
	if (b->stats_fd >= 0)
		close(b->stats_fd);
	b->stats_fd = -1;
}
