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
	const struct sample_meta *sm = t->view->sample;
	size_t i;
	int s;

	put_info(f, h);
	om_put_family(
		f, "copyprof_agent_sites", "gauge", NULL,
		"Sites by state: planned (not attached yet, or failed: retried at each "
		"re-plan), attached, over_budget (detached by --max-overhead), sampled (moved "
		"to sampling of its function by --max-overhead).");
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
	om_put_family(f, "copyprof_agent_site_sampled", "gauge", NULL,
		      "1 for each site moved to sampling of its function because the agent went "
		      "over --max-overhead: its calls up to then are still served, frozen; its "
		      "function's samples (not calls) are the site of mechanism sample, leaf the "
		      "function, family function.");
	for (i = 0; i < t->nr; i++) {
		const struct agent_site *a = &t->v[i];
		const struct profile_site *ps;

		if (a->state != AGENT_SITE_SAMPLED || a->slot < 0)
			continue;
		ps = &t->view->sites[a->slot];
		fprintf(f, "copyprof_agent_site_sampled{site=\"%d\",symbol=\"", a->slot);
		om_put_escaped(f, ps->symbol ?: "");
		fprintf(f, "\",mechanism=\"%s\"} 1\n", ps->mechanism ?: "");
	}
	gauge(f, "copyprof_agent_attach_failures", NULL,
	      "Attach attempts that failed since the agent started (each is logged).",
	      (double)t->attach_failures);
	gauge(f, "copyprof_agent_lost_events", NULL,
	      "Events lost: never for counted sites (per-CPU arrays cannot drop an update); for "
	      "sampled ones, samples whose registers did not fit the ring buffer (still counted, "
	      "length unknown).",
	      sm ? (double)sm->lost : 0);
	if (sm) {
		om_put_family(f, "copyprof_agent_samples", "gauge", NULL,
			      "Every sample the agent took of the wanted tasks since it started "
			      "(all), of them the idle task's (idle), and copy samples left out by "
			      "the plan's scope (outside): samples, not calls.");
		fprintf(f, "copyprof_agent_samples{kind=\"all\",event=\"%s\",hz=\"%u\"} %llu\n",
			sm->event ?: "", sm->hz, (unsigned long long)sm->total);
		fprintf(f, "copyprof_agent_samples{kind=\"idle\",event=\"%s\",hz=\"%u\"} %llu\n",
			sm->event ?: "", sm->hz, (unsigned long long)sm->idle);
		fprintf(f, "copyprof_agent_samples{kind=\"outside\",event=\"%s\",hz=\"%u\"} %llu\n",
			sm->event ?: "", sm->hz, (unsigned long long)sm->outside);
	}
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
	      "Sites moved to sampling or detached because the agent went over its budget.",
	      (double)h->budget->actions);
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
	gauge(f, "copyprof_agent_http_throttled", NULL,
	      "HTTP requests answered 429 without a password check: their client had tried too "
	      "many wrong ones.",
	      (double)h->http.auth.throttled);
	gauge(f, "copyprof_agent_http_password_checks", NULL,
	      "bcrypt runs: once per credential that matched, and once per wrong password tried.",
	      (double)h->http.auth.checks);
	gauge(f, "copyprof_agent_http_connections", NULL, "HTTP connections open now.",
	      (double)h->http.conns.open);
	om_put_family(f, "copyprof_agent_http_connections_closed", "gauge", NULL,
		      "HTTP connections the limits closed: refused at once (rate: opened too fast; "
		      "full: no slot could give way), evicted (idle or unfinished, for a newer "
		      "one), timed_out (past a deadline).");
	fprintf(f, "copyprof_agent_http_connections_closed{reason=\"rate\"} %llu\n",
		h->http.conns.refused_rate);
	fprintf(f, "copyprof_agent_http_connections_closed{reason=\"full\"} %llu\n",
		h->http.conns.refused_full);
	fprintf(f, "copyprof_agent_http_connections_closed{reason=\"evicted\"} %llu\n",
		h->http.conns.evicted);
	fprintf(f, "copyprof_agent_http_connections_closed{reason=\"timed_out\"} %llu\n",
		h->http.conns.timed_out);
	gauge(f, "copyprof_agent_last_scrape_duration_seconds", "seconds",
	      "How long the previous /metrics took to read the maps and render.", h->last_scrape_s);
	gauge(f, "copyprof_agent_start_time_seconds", "seconds",
	      "When the agent started, seconds since the epoch.", h->start_time);
	fputs("# EOF\n", f);
}
