// SPDX-License-Identifier: GPL-2.0
/* agent_metrics.c: the agent's health families, after the histograms of export_openmetrics.c */
#include <inttypes.h>
#include <stdio.h>
#include "agent_metrics.h"
#include "export/export_openmetrics.h"

/* The labels that say which host and build this is, as on every histogram. */
static void put_info(FILE *f, const struct agent_health *h)
{
	const struct host_meta *m = &h->sites->view->meta;

	om_put_family(f, "copyprof_agent_info", "gauge", NULL,
		      "Always 1: the agent's version, host, kernel, CPU model and the CPU flags "
		      "that decide today's copy code (estimate --prometheus reads them).");
	fputs("copyprof_agent_info{version=\"", f);
	om_put_escaped(f, m->tool_version ?: "");
	fputs("\",host=\"", f);
	om_put_escaped(f, m->hostname ?: "");
	fputs("\",kernel=\"", f);
	om_put_escaped(f, m->kernel ?: "");
	fputs("\",cpu_model=\"", f);
	om_put_escaped(f, m->cpu_model ?: "");
	fputs("\",cpu_flags=\"", f);
	om_put_escaped(f, h->cpu_flags ?: "");
	fputs("\"} 1\n", f);
}

static void gauge(FILE *f, const char *name, const char *unit, const char *help, double v)
{
	om_put_family(f, name, "gauge", unit, help);
	fprintf(f, "%s %.17g\n", name, v);
}

void agent_metrics_put(FILE *f, const struct agent_health *h)
{
	const struct agent_sites *t = h->sites;
	size_t i;
	int s;

	put_info(f, h);
	om_put_family(f, "copyprof_agent_sites", "gauge", NULL,
		      "Sites by state: planned (not attached yet, or failed: retried at each "
		      "re-plan), attached, over_budget (detached by --max-overhead).");
	for (s = 0; s < AGENT_NR_SITE_STATES; s++)
		fprintf(f, "copyprof_agent_sites{state=\"%s\"} %zu\n",
			agent_site_state_name((enum agent_site_state)s),
			agent_sites_count(t, (enum agent_site_state)s));
	om_put_family(f, "copyprof_agent_site_over_budget", "gauge", NULL,
		      "1 for each site detached because the agent went over --max-overhead; its "
		      "counts up to then are still served.");
	for (i = 0; i < t->nr; i++) {
		const struct agent_site *a = &t->v[i];
		const struct profile_site *ps;

		if (a->state != AGENT_SITE_OVER_BUDGET || a->slot < 0)
			continue;
		ps = &t->view->sites[a->slot];
		fprintf(f, "copyprof_agent_site_over_budget{site=\"%d\",symbol=\"", a->slot);
		om_put_escaped(f, ps->symbol ?: "");
		fprintf(f, "\",mechanism=\"%s\"} 1\n", ps->mechanism ?: "");
	}
	gauge(f, "copyprof_agent_attach_failures", NULL,
	      "Attach attempts that failed since the agent started (each is logged).",
	      (double)t->attach_failures);
	gauge(f, "copyprof_agent_lost_events", NULL,
	      "Events lost: always 0 for counted sites (per-CPU arrays cannot drop an update).", 0);
	gauge(f, "copyprof_agent_bpf_run_time_seconds", "seconds",
	      "Run time of the agent's BPF programs since it started (BPF_ENABLE_STATS; 0 when "
	      "the kernel does not count it).",
	      (double)h->budget->bpf_ns_total / 1e9);
	gauge(f, "copyprof_agent_bpf_runs", NULL, "Runs of the agent's BPF programs.",
	      (double)h->budget->bpf_runs_total);
	gauge(f, "copyprof_agent_cpu_seconds", "seconds",
	      "The agent's own user and system CPU time.", h->budget->cpu_s_total);
	gauge(f, "copyprof_agent_overhead_ratio", NULL,
	      "The last window's cost (BPF run time + the agent's CPU time) as a fraction of "
	      "one CPU.",
	      h->budget->last);
	gauge(f, "copyprof_agent_overhead_budget_ratio", NULL,
	      "--max-overhead as a fraction of one CPU.", h->budget->limit);
	gauge(f, "copyprof_agent_budget_actions", NULL,
	      "Sites detached because the agent went over its budget.", (double)h->budget->actions);
	gauge(f, "copyprof_agent_replans", NULL, "Re-plans done (periodic and SIGHUP).",
	      (double)h->replans);
	gauge(f, "copyprof_agent_http_requests", NULL, "HTTP requests answered.",
	      (double)h->http.requests);
	gauge(f, "copyprof_agent_http_refused", NULL,
	      "HTTP requests refused: unknown path (404) or method (405).",
	      (double)h->http.refused);
	gauge(f, "copyprof_agent_http_unauthorized", NULL,
	      "HTTP requests without a valid user and password (401).",
	      (double)h->http.unauthorized);
	gauge(f, "copyprof_agent_last_scrape_duration_seconds", "seconds",
	      "How long the previous /metrics took to read the maps and render.", h->last_scrape_s);
	gauge(f, "copyprof_agent_start_time_seconds", "seconds",
	      "When the agent started, seconds since the epoch.", h->start_time);
	fputs("# EOF\n", f);
}
