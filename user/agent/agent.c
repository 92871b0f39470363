// SPDX-License-Identifier: GPL-2.0
/* agent.c: the agent's life: plan, attach, serve, re-plan, keep to the budget, detach on a signal */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include "agent.h"
#include "agent_budget.h"
#include "agent_delta.h"
#include "agent_http.h"
#include "agent_metrics.h"
#include "agent_privs.h"
#include "agent_sample.h"
#include "agent_sites.h"
#include "agent_switch.h"
#include "agent_traced.h"
#include "export/export_openmetrics.h"
#include "export/export_pprof.h"
#include "kernel/cgroup.h"
#include "kernel/feature.h"
#include "kernel/kimage.h"
#include "kernel/uprobe_multi.h"
#include "lib/log.h"
#include "lib/monotime.h"
#include "lib/stop.h"
#include "web_config.h"

#define AGENT_MIN_SLOTS 16
/* After the probes are detached, the HTTP server has this long to stop; then exit anyway. */
#define AGENT_STOP_DEADLINE_S 3.0

struct agent {
	struct agent_args *a;
	struct agent_sites t;
	struct agent_budget budget;
	struct agent_traced traced; /* what the traced processes pay for the probes */
	struct agent_sampler smp;
	struct agent_switch sw;		    /* over-budget uprobe sites, sampled */
	struct record_plan_sampled sampled; /* the first plan's functions no probe takes */
	struct agent_http *http;
	double start_mono, start_time;
	double last_scrape_s;
	unsigned long long replans;
	char *cpu_flags;
	struct cgroup_set cg; /* --cgroup, opened */
	char *cg_names; /* their names joined by ',' (copyprof_agent_info's cgroup), or NULL */
	bool closing;	/* under t.lock: probes detached, nothing more is served */
};

static char *join_flags(const struct host_meta *m)
{
	size_t i, n = 1;
	char *s;

	for (i = 0; i < m->nr_cpu_flags; i++)
		n += strlen(m->cpu_flags[i]) + 1;
	s = calloc(1, n);
	for (i = 0; s && i < m->nr_cpu_flags; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, m->cpu_flags[i]);
	}
	return s;
}

static int render_metrics(struct agent *ag, const struct agent_request *q, struct agent_reply *r)
{
	struct om_opts o = { .live = true };
	struct agent_health h = { .sites = &ag->t, .budget = &ag->budget, .traced = &ag->traced };
	FILE *f = open_memstream(&r->body, &r->len);
	struct metric_writer *w;
	int err;

	if (!f)
		return -ENOMEM;
	w = q->format == AGENT_FORMAT_PROTOBUF	 ? mw_proto_new(f)
	    : q->format == AGENT_FORMAT_TEXT_004 ? mw_text004_new(f)
						 : mw_text_new(f, NULL);
	agent_budget_totals(&ag->budget, ag->t.hs);
	if (ag->http)
		agent_http_stats(ag->http, &h.http);
	h.start_time = ag->start_time;
	h.last_scrape_s = ag->last_scrape_s;
	h.replans = ag->replans;
	h.cpu_flags = ag->cpu_flags;
	h.cgroup = ag->cg_names;
	if (w) {
		export_metrics_put(w, ag->t.view, &o);
		agent_metrics_put(w, &h);
	}
	err = mw_close(w);
	if (fclose(f) || err)
		return err ? err : -EIO;
	r->type = q->format == AGENT_FORMAT_PROTOBUF ? AGENT_PROTOBUF_TYPE
		  : q->format == AGENT_FORMAT_TEXT_004
			  ? "text/plain; version=0.0.4; charset=utf-8"
			  : "application/openmetrics-text; version=1.0.0; "
			    "charset=utf-8";
	return 0;
}

/*
 * Each counted site's "state" and "state_since" (docs/profile-format.md#the-agents-sites), as
 * /metrics gives them: a site whose calls froze says so in the snapshot too.
 */
static void put_site_states(const struct agent_sites *t, json_object *j)
{
	json_object *sites;
	size_t i;

	if (!json_object_object_get_ex(j, "sites", &sites))
		return;
	for (i = 0; i < t->nr; i++) {
		const char *state = agent_site_calls_state(&t->v[i]);
		json_object *o =
			state ? json_object_array_get_idx(sites, (size_t)t->v[i].slot) : NULL;

		if (!o)
			continue;
		json_object_object_add(o, "state", json_object_new_string(state));
		json_object_object_add(o, "state_since", json_object_new_double(t->v[i].since));
	}
}

static int render_profile(struct agent *ag, struct agent_reply *r)
{
	json_object *j = profile_to_json(ag->t.view);
	const char *s;

	if (!j)
		return -ENOMEM;
	put_site_states(&ag->t, j);
	s = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
	r->body = s ? strdup(s) : NULL;
	r->len = r->body ? strlen(r->body) : 0;
	json_object_put(j);
	r->type = "application/json";
	return r->body ? 0 : -ENOMEM;
}

static int render_pprof(struct agent *ag, struct agent_reply *r)
{
	struct export_pprof_stats st;
	void *buf = NULL;
	int err = export_pprof(ag->t.view, NULL, &buf, &r->len, &st);

	r->body = buf;
	r->type = "application/octet-stream";
	return err;
}

/* With the lock: every site's counts now, in the view (its sampled sites appended). */
static int snapshot(struct agent *ag, double now)
{
	int err = agent_sites_read(&ag->t);

	ag->t.view->meta.duration_s = now - ag->start_mono;
	if (!err)
		err = agent_switch_append(&ag->sw, &ag->t, ag->t.view);
	if (!err)
		agent_sample_drain(&ag->smp);
	if (!err)
		err = agent_sample_append(&ag->smp, ag->t.view);
	return err;
}

/*
 * pprof's seconds=N, as Go's net/http/pprof and Parca mean it: what was counted in the next N
 * seconds (two snapshots, their difference), not since the start. The lock is not held while
 * waiting; the client going away, another user's profile taking the place (agent_conns.h) or
 * a stop ends the wait (503).
 */
static int delta_mark(struct agent *ag, const struct agent_request *q, struct agent_mark **m,
		      struct agent_reply *r)
{
	size_t counted;
	int err = -ESHUTDOWN;

	*m = NULL;
	pthread_mutex_lock(&ag->t.lock);
	if (!ag->closing) {
		counted = ag->t.view->nr_sites;
		err = snapshot(ag, monotime_s());
		*m = err ? NULL : agent_mark_take(ag->t.view);
		agent_sample_trim(ag->t.view, counted);
	}
	pthread_mutex_unlock(&ag->t.lock);
	if (!*m) {
		r->status = err == -ESHUTDOWN ? 503 : 0;
		return err ? err : -ENOMEM;
	}
	err = agent_http_wait(ag->http, q, q->seconds);
	if (err) {
		r->status = 503;
		agent_mark_free(*m);
		*m = NULL;
	}
	return err;
}

/* Every route renders one snapshot, read under the lock: two scrapers never see a half. */
static int on_route(void *ctx, const struct agent_request *q, struct agent_reply *r)
{
	struct agent *ag = ctx;
	enum agent_route route = q->route;
	struct agent_mark *mark = NULL;
	double t0;
	int err;
	size_t counted;

	if (route == AGENT_ROUTE_PPROF && q->seconds && (err = delta_mark(ag, q, &mark, r)))
		return err;
	t0 = monotime_s();
	pthread_mutex_lock(&ag->t.lock);
	if (ag->closing) { /* the probes are gone: the server is stopping */
		pthread_mutex_unlock(&ag->t.lock);
		agent_mark_free(mark);
		r->status = 503;
		return -ESHUTDOWN;
	}
	counted = ag->t.view->nr_sites;
	err = snapshot(ag, t0);
	if (!err && mark)
		agent_mark_subtract(ag->t.view, mark, q->seconds);
	if (!err)
		err = route == AGENT_ROUTE_METRICS   ? render_metrics(ag, q, r)
		      : route == AGENT_ROUTE_PROFILE ? render_profile(ag, r)
						     : render_pprof(ag, r);
	agent_sample_trim(ag->t.view, counted);
	if (route == AGENT_ROUTE_METRICS)
		ag->last_scrape_s = monotime_s() - t0;
	pthread_mutex_unlock(&ag->t.lock);
	agent_mark_free(mark);
	return err;
}

/*
 * Plans -p/--site/--entry (again) into @v; the first time also takes the given sites, and the
 * functions no probe can take go to @sampled.
 */
static int plan_sites(struct agent_args *a, bool first, struct probe_site *v,
		      struct record_plan_sampled *sampled)
{
	int n = 0, i;

	if (record_plan_wanted(&a->plan) &&
	    record_plan_sites(&a->plan, v, &n, CP_MAX_SITES, sampled) < 0)
		p_warn("planning failed; the sites planned before are kept");
	for (i = 0; first && i < a->nr_sites && n < CP_MAX_SITES; i++) {
		v[n++] = a->sites[i];
		memset(&a->sites[i], 0, sizeof(a->sites[i]));
	}
	return n;
}

static void add_sites(struct agent *ag, struct probe_site *v, int n)
{
	int i;

	pthread_mutex_lock(&ag->t.lock);
	for (i = 0; i < n; i++)
		agent_sites_add(&ag->t, &v[i]);
	pthread_mutex_unlock(&ag->t.lock);
}

static void replan(struct agent *ag, const char *why)
{
	struct probe_site *v = calloc(CP_MAX_SITES, sizeof(*v));
	int added;

	ag->replans++;
	p_info("re-plan (%s)", why);
	if (v)
		add_sites(ag, v, plan_sites(ag->a, false, v, NULL));
	free(v);
	added = agent_sites_attach_pending(&ag->t);
	if (added)
		p_info("re-plan attached %d more site(s)", added);
	added = agent_sites_follow(&ag->t);
	if (added)
		p_info("re-plan re-attached %d site(s) to replaced files", added);
	agent_traced_measure(&ag->traced, &ag->t, ag->budget.bpf_stats);
}

/* The attached site that cost the most in the last window (its traps, else its hits). */
static size_t costliest(const struct agent_sites *t)
{
	size_t i, best = SIZE_MAX;

	for (i = 0; i < t->nr; i++) {
		const struct agent_site *s = &t->v[i];

		if (s->state != AGENT_SITE_ATTACHED || !s->window_hits)
			continue;
		if (best == SIZE_MAX || s->window_cost_ns > t->v[best].window_cost_ns ||
		    (s->window_cost_ns == t->v[best].window_cost_ns &&
		     s->window_hits > t->v[best].window_hits))
			best = i;
	}
	return best;
}

/*
 * Over budget: the site that cost the most in the window is moved to sampling of its function
 * where it can be (a uprobe: agent_switch.h), else detached.
 */
static void keep_budget(struct agent *ag)
{
	struct agent_budget *b = &ag->budget;
	struct agent_sites *t = &ag->t;
	char why[160];
	const char *did;
	double traced;
	size_t best;

	pthread_mutex_lock(&t->lock);
	if (!agent_budget_window_due(b))
		goto out;
	agent_budget_totals(b, t->hs);
	traced = agent_traced_window(&ag->traced, t, b->bpf_runs_total, b->bpf_stats);
	if (!agent_budget_close(b, t->hs, traced))
		goto out;
	if (!agent_budget_sites_to_blame(b)) {
		/* Said once: every window would say it again. */
		if (!b->own_warned)
			p_warn("the agent costs %.2f%% of one CPU, over --max-overhead %.2f%%, but "
			       "its sites cost only %.3f%% (BPF %.3f%%%s, the traced processes' "
			       "traps %.3f%%): its own work (scrapes, re-plans, samples) is the "
			       "rest, and no site is taken away for it. Scrape less often or raise "
			       "--max-overhead",
			       100 * b->last, 100 * b->limit, 100 * (b->last_bpf + b->last_traced),
			       100 * b->last_bpf, b->bpf_stats ? "" : ", not measured here",
			       100 * b->last_traced);
		b->own_warned = true;
		goto out;
	}
	best = costliest(t);
	if (best == SIZE_MAX) {
		p_warn("the agent costs %.2f%% of one CPU, over --max-overhead %.2f%%, but no "
		       "attached site was hit: sites taken away before cost it",
		       100 * b->last, 100 * b->limit);
		goto out;
	}
	if (!agent_switch_site(&ag->sw, t, best, why, sizeof(why))) {
		did = "moved to sampling of its function (copyprof_agent_site_sampled; its "
		      "samples are served as a site of mechanism sample)";
	} else {
		p_info("site %s cannot be sampled instead: %s", t->v[best].key, why);
		agent_sites_detach(t, best, AGENT_SITE_OVER_BUDGET);
		did = "detached (copyprof_agent_site_over_budget)";
	}
	b->actions++;
	p_warn("site %s %s: the agent and its probes cost %.2f%% of one CPU in the last %.0f s, "
	       "over --max-overhead %.2f%%: the traced processes' traps %.2f%% (this site: %llu "
	       "hits in the last %.0f s, about %.2f%% then), BPF %.3f%% (%.3f ms), the agent "
	       "%.2f%%; its counts so far are still served, frozen",
	       t->v[best].key, did, 100 * b->last, b->last_wall, 100 * b->limit,
	       100 * b->last_traced, (unsigned long long)t->v[best].window_hits, b->window_wall,
	       100 * t->v[best].window_cost_ns / 1e9 / b->window_wall, 100 * b->last_bpf,
	       (double)b->last_bpf_ns / 1e6, 100 * (b->last - b->last_bpf - b->last_traced));
out:
	pthread_mutex_unlock(&t->lock);
}

/*
 * Whether re-plans will want CAP_SYS_ADMIN: a perf-event uprobe does (a kernel without
 * uprobe_multi links), and so may a kprobe or a breakpoint (a plan can add kernel sites).
 */
static bool needs_sys_admin(const struct agent *ag)
{
	size_t i;

	if (!uprobe_multi_supported() || record_plan_wanted(&ag->a->plan))
		return true;
	for (i = 0; i < ag->t.nr; i++)
		if (ag->t.v[i].ps.mech != MECH_UPROBE)
			return true;
	return false;
}

static int check_listen(const struct agent_args *a, const struct web_config *web)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char why[256];

	if (agent_http_parse_listen(a->listen, &ss, &len, why, sizeof(why))) {
		p_err("--listen %s: %s", a->listen, why);
		return EXIT_USAGE;
	}
	if (!agent_http_is_loopback(&ss) && (!web || !web->cert_pem || !web->nr_users)) {
		p_err("--listen %s is beyond loopback: what the agent serves names the kernel's "
		      "code and load, so it needs TLS and a password there: give --web-config "
		      "FILE with tls_server_config and basic_auth_users (docs/fleet.md)",
		      a->listen);
		return EXIT_USAGE;
	}
	return 0;
}

static void loop(struct agent *ag)
{
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	double next_plan = monotime_s() + ag->a->replan_s;

	while (!stop_requested()) {
		nanosleep(&tick, NULL);
		pthread_mutex_lock(&ag->t.lock);
		agent_sample_drain(&ag->smp);
		pthread_mutex_unlock(&ag->t.lock);
		if (stop_reload_requested()) {
			replan(ag, "SIGHUP");
		} else if (ag->a->replan_s && monotime_s() >= next_plan) {
			replan(ag, "periodic");
			next_plan = monotime_s() + ag->a->replan_s;
		}
		keep_budget(ag);
	}
	p_info("signal %d: detaching every probe", stop_signal());
}

int agent_run(struct agent_args *a)
{
	struct hist_filter filter = { .tgid = a->pid, .comm = a->comm };
	struct web_config web = { 0 };
	struct agent ag = { .a = a };
	struct profile *view = NULL;
	struct probe_site *planned = NULL;
	int status = EXIT_RUNTIME, nr = 0;
	size_t cap;

	if (a->web_config && web_config_load(a->web_config, &web))
		return EXIT_RUNTIME;
	status = check_listen(a, a->web_config ? &web : NULL);
	if (status)
		goto out_web;
	status = EXIT_RUNTIME;
	if (cgroup_set_open(a->cgroups, (uint32_t)a->nr_cgroups, &ag.cg) ||
	    (ag.cg.nr && !(ag.cg_names = cgroup_set_names(&ag.cg))))
		goto out_web;
	filter.cgroups = &ag.cg;
	filter.by_cgroup = a->by_cgroup;
	ag.smp.sa.cgroups = a->cgroups;
	ag.smp.sa.nr_cgroups = a->nr_cgroups;
	stop_install_reload();
	signal(SIGPIPE, SIG_IGN); /* a scraper gone mid-response is an error, not a death */
	if (feature_check_bpf() || !(view = profile_new()) ||
	    !(planned = calloc(CP_MAX_SITES, sizeof(*planned))))
		goto out_web;
	host_fill_meta(&view->meta);
	if (a->host) {
		free(view->meta.hostname);
		view->meta.hostname = strdup(a->host);
	}
	ag.cpu_flags = join_flags(&view->meta);
	ag.start_mono = monotime_s();
	ag.start_time = (double)time(NULL);
	/* Twice the first plan's sites, so that re-plans find free slots: memory stays bounded. */
	nr = plan_sites(a, true, planned, &ag.sampled);
	cap = (size_t)nr * 2 < AGENT_MIN_SLOTS ? AGENT_MIN_SLOTS : (size_t)nr * 2;
	if (agent_sites_open(&ag.t, &filter, (uint32_t)cap, view)) {
		while (nr)
			probe_site_free(&planned[--nr]);
		goto out_web;
	}
	add_sites(&ag, planned, nr);
	nr = agent_sites_attach_pending(&ag.t);
	if (ag.t.nr)
		p_info("%d of %zu site(s) attached%s", nr, ag.t.nr,
		       (size_t)nr < ag.t.nr ? "; the others are retried at each re-plan" : "");
	if (agent_sample_start(&ag.smp, a->sample, a->hz, a->pid, a->comm, &a->plan, (int)ag.t.nr,
			       &ag.sampled))
		goto out;
	ag.sw = (struct agent_switch){
		.tgid = a->pid, .comm = a->comm, .cgroups = &ag.cg, .hz = a->hz
	};
	if (!ag.sw.hz)
		ag.sw.hz = RECORD_SAMPLE_DEFAULT_HZ;
	agent_budget_start(&ag.budget, a->max_overhead_pct, ag.t.hs);
	agent_traced_measure(&ag.traced, &ag.t, ag.budget.bpf_stats);
	if (!a->keep_privileges) {
		/* Re-plans read the live text after CAP_SYS_RAWIO is gone (none here: fine). */
		kimage_hold_kcore();
		agent_privs_drop(needs_sys_admin(&ag));
	}
	ag.http = agent_http_start(a->listen, a->web_config ? &web : NULL, on_route, &ag);
	if (!ag.http)
		goto out;
	p_info("serving %s://%s/metrics, /profile and /debug/pprof/profile; SIGHUP re-plans, "
	       "SIGTERM ends",
	       web.cert_pem ? "https" : "http", a->listen);
	loop(&ag);
	status = EXIT_OK;
out:
	/* The probes first: whatever the server does next, the traced programs stop paying. */
	agent_http_close(ag.http);
	pthread_mutex_lock(&ag.t.lock);
	ag.closing = true;
	agent_sites_detach_all(&ag.t);
	agent_budget_stop(&ag.budget);
	agent_sample_stop(&ag.smp);
	agent_switch_stop(&ag.sw);
	pthread_mutex_unlock(&ag.t.lock);
	if (ag.http)
		p_info("every probe detached; stopping the HTTP server");
	if (agent_http_stop(ag.http, AGENT_STOP_DEADLINE_S)) {
		p_err("the HTTP server did not stop within %.0f s of the probes' detaching (a "
		      "request still under way): exiting anyway, status %d",
		      AGENT_STOP_DEADLINE_S, EXIT_RUNTIME);
		fflush(NULL);
		_exit(EXIT_RUNTIME);
	}
	agent_sites_close(&ag.t);
	view = NULL;
	free(ag.cpu_flags);
out_web:
	cgroup_set_close(&ag.cg);
	free(ag.cg_names);
	record_plan_sampled_free(&ag.sampled);
	free(planned);
	profile_free(view);
	web_config_free(&web);
	return status;
}
