// SPDX-License-Identifier: GPL-2.0
/* agent_metrics.c: the agent's health families, after the histograms of export_openmetrics.c */
#include <stdio.h>
#include "agent_metrics.h"
#include "export/export_openmetrics.h"

/*
 * The labels that say which host and build this is, once: the site series leave out the host
 * (and the site id), which a query joins from here (docs/fleet.md).
 */
static void put_info(struct metric_writer *w, const struct agent_health *h)
{
	const struct host_meta *m = &h->sites->view->meta;
	struct mw_label l[] = {
		{ "version", m->tool_version }, { "host", m->hostname },
		{ "kernel", m->kernel },	{ "cpu_model", m->cpu_model },
		{ "cpu_flags", h->cpu_flags },	{ "cgroup", h->cgroup },
	};

	mw_family(w, "copyprof_agent_info", MW_GAUGE, NULL,
		  "Always 1: the agent's version, host, kernel, CPU model, the CPU flags that "
		  "decide today's copy code (estimate --prometheus reads them) and its --cgroup.");
	mw_count(w, l, sizeof(l) / sizeof(l[0]), 1);
}

static void gauge(struct metric_writer *w, const char *name, const char *unit, const char *help,
		  double v)
{
	mw_family(w, name, MW_GAUGE, unit, help);
	mw_gauge(w, NULL, 0, v);
}

static void count(struct metric_writer *w, const char *name, const char *help, unsigned long long v)
{
	mw_family(w, name, MW_GAUGE, NULL, help);
	mw_count(w, NULL, 0, v);
}

/* One series per site in state @state: site, symbol and mechanism. */
static void put_state_sites(struct metric_writer *w, const struct agent_sites *t,
			    enum agent_site_state state)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		const struct agent_site *a = &t->v[i];
		const struct profile_site *ps;
		char id[16];

		if (a->state != state || a->slot < 0)
			continue;
		ps = &t->view->sites[a->slot];
		snprintf(id, sizeof(id), "%d", a->slot);
		mw_count(w,
			 (struct mw_label[]){ { "site", id },
					      { "symbol", ps->symbol },
					      { "mechanism", ps->mechanism } },
			 3, 1);
	}
}

/*
 * Each counted site's state and since when, on the labels of its histograms: a site that is
 * not counting any more has calls up to then only, which a reader over a range must know
 * (estimate --prometheus says so; docs/fleet.md#partial-sites).
 */
static void put_site_states(struct metric_writer *w, const struct agent_sites *t)
{
	size_t i, n;

	mw_family(w, "copyprof_site_state_since_seconds", MW_GAUGE, "seconds",
		  "When each counted site entered its state, seconds since the epoch: counting "
		  "(attached), sampled (moved to sampling by --max-overhead: its calls histogram "
		  "froze then) or detached (by --max-overhead, or not attached again): one series "
		  "per site, of its histograms' labels and state.");
	for (i = 0; i < t->nr; i++) {
		const struct agent_site *a = &t->v[i];
		const char *state = agent_site_calls_state(a);
		struct mw_label l[OM_MAX_SITE_LABELS + 1];
		char id[16], off[24];

		if (!state || (size_t)a->slot >= t->view->nr_sites)
			continue;
		n = om_live_site_labels(t->view, &t->view->sites[a->slot], l, id, off);
		l[n++] = (struct mw_label){ "state", state };
		mw_gauge(w, l, n, a->since);
	}
}

/*
 * What each site's hits cost the traced processes, estimated (hits x the measured cost of a
 * hit): since the start, and in the budget's last window as a fraction of one CPU.
 */
static void put_traced(struct metric_writer *w, const struct agent_health *h)
{
	const struct agent_sites *t = h->sites;
	const struct agent_traced *tr = h->traced;
	double wall = h->budget->window_wall;
	size_t i;
	int m;

	mw_family(w, "copyprof_agent_trap_cost_seconds", MW_GAUGE, "seconds",
		  "What one hit of each mechanism in use costs the traced thread (its trap and the "
		  "BPF program's run), measured on this host at the start and at each re-plan.");
	for (m = 0; m < TRAP_COST_NR_MECHS; m++)
		if (tr->in_use[m] && tr->cost[m].measured)
			mw_gauge(w,
				 (struct mw_label[]){
					 { "mechanism", probe_mech_name((enum probe_mech)m) } },
				 1, agent_traced_hit_ns(tr, (enum probe_mech)m) / 1e9);
	for (m = 0; m < 2; m++) {
		mw_family(
			w,
			m ? "copyprof_agent_site_traced_cost_ratio"
			  : "copyprof_agent_site_traced_cost_seconds",
			MW_GAUGE, m ? NULL : "seconds",
			m ? "A site's estimated cost to the traced processes in the budget's last "
			    "2 s window, a fraction of one CPU: its hits times the cost of a hit."
			  : "A site's estimated cost to the traced processes since the agent "
			    "started, CPU seconds: its hits times the cost of a hit.");
		for (i = 0; i < t->nr; i++) {
			const struct agent_site *a = &t->v[i];
			const struct profile_site *ps;
			char off[24];

			if (a->slot < 0 || a->state == AGENT_SITE_PLANNED)
				continue;
			ps = &t->view->sites[a->slot];
			snprintf(off, sizeof(off), "0x%llx", (unsigned long long)ps->offset);
			mw_gauge(w,
				 (struct mw_label[]){ { "symbol", ps->symbol },
						      { "offset", off },
						      { "target", ps->target },
						      { "mechanism", ps->mechanism } },
				 4,
				 m ? (wall > 0 ? a->window_cost_ns / 1e9 / wall : 0)
				   : a->cost_ns_total / 1e9);
		}
	}
	gauge(w, "copyprof_agent_traced_cost_seconds", "seconds",
	      "The traced processes' estimated cost of every hit since the agent started, CPU "
	      "seconds (those of tasks a filter left out included, with BPF statistics).",
	      tr->total_ns / 1e9);
}

static void put_samples(struct metric_writer *w, const struct sample_meta *sm)
{
	static const char *const kinds[] = { "all", "idle", "outside" };
	const unsigned long long v[] = { sm->total, sm->idle, sm->outside };
	char hz[16];
	size_t i;

	snprintf(hz, sizeof(hz), "%u", sm->hz);
	mw_family(
		w, "copyprof_agent_samples", MW_GAUGE, NULL,
		"Every sample the agent took of the wanted tasks since it started (all), of them "
		"the idle task's (idle), and copy samples left out by the plan's scope (outside): "
		"samples, not calls.");
	for (i = 0; i < 3; i++)
		mw_count(w,
			 (struct mw_label[]){
				 { "kind", kinds[i] }, { "event", sm->event }, { "hz", hz } },
			 3, v[i]);
}

static void put_http(struct metric_writer *w, const struct agent_http_stats *st)
{
	static const char *const reasons[] = { "rate", "full", "evicted", "timed_out" };
	const unsigned long long closed[] = { st->conns.refused_rate, st->conns.refused_full,
					      st->conns.evicted, st->conns.timed_out };
	size_t i;

	count(w, "copyprof_agent_http_requests", "HTTP requests answered.", st->requests);
	count(w, "copyprof_agent_http_refused",
	      "HTTP requests refused: unknown path (404), method (405), a body or a bad seconds= "
	      "(400).",
	      st->refused);
	count(w, "copyprof_agent_http_unauthorized",
	      "HTTP requests without a valid user and password (401).", st->unauthorized);
	count(w, "copyprof_agent_http_throttled",
	      "HTTP requests answered 429 without a password check: their client, its user or "
	      "everyone had tried too many wrong ones.",
	      st->auth.throttled);
	count(w, "copyprof_agent_http_password_checks",
	      "bcrypt runs: once per credential that matched, and once per wrong password tried.",
	      st->auth.checks);
	count(w, "copyprof_agent_http_connections", "HTTP connections open now.", st->conns.open);
	count(w, "copyprof_agent_http_connections_held",
	      "HTTP connections the HTTP library holds now: open ones and those shut down whose "
	      "thread has not ended.",
	      st->conns.held);
	count(w, "copyprof_agent_http_profile_waits",
	      "pprof profiles over a window (seconds=N) being waited for now.", st->conns.deltas);
	count(w, "copyprof_agent_http_profiles_refused",
	      "pprof profiles over a window answered 503: the pool was full.",
	      st->conns.delta_refused);
	count(w, "copyprof_agent_http_profiles_given_way",
	      "pprof profiles over a window ended early (503) for another user's.",
	      st->conns.delta_cancelled);
	mw_family(w, "copyprof_agent_http_connections_closed", MW_GAUGE, NULL,
		  "HTTP connections the limits closed: refused at once (rate: opened too fast; "
		  "full: no slot could give way), evicted (idle or unfinished, for a newer one), "
		  "timed_out (past a deadline).");
	for (i = 0; i < 4; i++)
		mw_count(w, (struct mw_label[]){ { "reason", reasons[i] } }, 1, closed[i]);
}

void agent_metrics_put(struct metric_writer *w, const struct agent_health *h)
{
	const struct agent_sites *t = h->sites;
	const struct sample_meta *sm = t->view->sample;
	const struct agent_budget *b = h->budget;
	int s;

	put_info(w, h);
	mw_family(w, "copyprof_agent_sites", MW_GAUGE, NULL,
		  "Sites by state: planned (not attached yet, or failed: retried at each re-plan), "
		  "attached, over_budget (detached by --max-overhead), sampled (moved to sampling "
		  "of its function by --max-overhead).");
	for (s = 0; s < AGENT_NR_SITE_STATES; s++)
		mw_count(w,
			 (struct mw_label[]){
				 { "state", agent_site_state_name((enum agent_site_state)s) } },
			 1, agent_sites_count(t, (enum agent_site_state)s));
	mw_family(w, "copyprof_agent_site_over_budget", MW_GAUGE, NULL,
		  "1 for each site detached because the agent went over --max-overhead; its counts "
		  "up to then are still served.");
	put_state_sites(w, t, AGENT_SITE_OVER_BUDGET);
	mw_family(w, "copyprof_agent_site_sampled", MW_GAUGE, NULL,
		  "1 for each site moved to sampling of its function because the agent went over "
		  "--max-overhead: its calls up to then are still served, frozen; its function's "
		  "samples (not calls) are the site of mechanism sample, leaf the function, family "
		  "function.");
	put_state_sites(w, t, AGENT_SITE_SAMPLED);
	put_site_states(w, t);
	count(w, "copyprof_agent_attach_failures",
	      "Attach attempts that failed since the agent started (each is logged).",
	      t->attach_failures);
	count(w, "copyprof_agent_reattached",
	      "Uprobe sites attached again because their file was replaced under its path (a "
	      "deploy's rename), each logged; the old file's probe stays while a process maps it.",
	      t->redeploy.reattached);
	count(w, "copyprof_agent_lost_events",
	      "Events lost: never for counted sites (per-CPU arrays cannot drop an update); for "
	      "sampled ones, samples whose registers did not fit the ring buffer (still counted, "
	      "length unknown).",
	      sm ? sm->lost : 0);
	if (sm)
		put_samples(w, sm);
	gauge(w, "copyprof_agent_bpf_run_time_seconds", "seconds",
	      "Run time of the agent's BPF programs since it started (BPF_ENABLE_STATS; 0 when the "
	      "kernel does not count it).",
	      (double)b->bpf_ns_total / 1e9);
	count(w, "copyprof_agent_bpf_runs", "Runs of the agent's BPF programs.", b->bpf_runs_total);
	gauge(w, "copyprof_agent_cpu_seconds", "seconds",
	      "The agent's own user and system CPU time, every thread (HTTP and TLS included).",
	      b->cpu_s_total);
	put_traced(w, h);
	gauge(w, "copyprof_agent_traced_cost_ratio", NULL,
	      "The estimated cost to the traced processes (their hits' traps) over the last 10 s, "
	      "a fraction of one CPU.",
	      b->last_traced);
	gauge(w, "copyprof_agent_overhead_ratio", NULL,
	      "The cost over the last 10 s (the traced processes' traps + BPF run time + the "
	      "agent's CPU time) as a fraction of one CPU: what --max-overhead holds.",
	      b->last);
	gauge(w, "copyprof_agent_overhead_budget_ratio", NULL,
	      "--max-overhead as a fraction of one CPU.", b->limit);
	count(w, "copyprof_agent_budget_actions",
	      "Sites moved to sampling or detached because the agent went over its budget.",
	      b->actions);
	count(w, "copyprof_agent_replans", "Re-plans done (periodic and SIGHUP).", h->replans);
	put_http(w, &h->http);
	gauge(w, "copyprof_agent_last_scrape_duration_seconds", "seconds",
	      "How long the previous /metrics took to read the maps and render.", h->last_scrape_s);
	gauge(w, "copyprof_agent_start_time_seconds", "seconds",
	      "When the agent started, seconds since the epoch.", h->start_time);
}
