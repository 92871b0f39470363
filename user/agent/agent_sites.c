// SPDX-License-Identifier: GPL-2.0
/* agent_sites.c: the agent's site table over one hist.bpf.c session, with free slots for re-plans */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "agent_sites.h"
#include "lib/log.h"

static const char *const state_names[AGENT_NR_SITE_STATES] = { "planned", "attached", "over_budget",
							       "sampled" };

const char *agent_site_state_name(enum agent_site_state s)
{
	return state_names[s];
}

const char *agent_site_calls_state(const struct agent_site *a)
{
	if (a->slot < 0 || !a->since)
		return NULL;
	return a->state == AGENT_SITE_ATTACHED	? "counting"
	       : a->state == AGENT_SITE_SAMPLED ? "sampled"
						: "detached";
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int agent_sites_open(struct agent_sites *t, const struct hist_filter *f, uint32_t cap,
		     struct profile *view)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	t->view = view;
	t->cap = cap > CP_MAX_SITES ? CP_MAX_SITES : cap ? cap : 1;
	/* Callers are not counted: their table is the one part whose size is not fixed. */
	t->hs = hist_session_open(f, t->cap, 0);
	return t->hs ? 0 : -EIO;
}

static char *site_key(const struct probe_site *ps)
{
	char *k;

	if (asprintf(&k, "%s|%s|%s|%llx", probe_mech_name(ps->mech), ps->spec.path ?: "vmlinux",
		     ps->spec.symbol ?: "?", (unsigned long long)ps->spec.offset) < 0)
		return NULL;
	return k;
}

int agent_sites_add(struct agent_sites *t, struct probe_site *ps)
{
	char *key = site_key(ps);
	struct agent_site *v;
	size_t i;

	for (i = 0; key && i < t->nr; i++)
		if (!strcmp(t->v[i].key, key)) {
			free(key);
			probe_site_free(ps);
			return 0;
		}
	v = key ? realloc(t->v, (t->nr + 1) * sizeof(*v)) : NULL;
	if (!v) {
		free(key);
		probe_site_free(ps);
		return -ENOMEM;
	}
	t->v = v;
	v = &t->v[t->nr++];
	memset(v, 0, sizeof(*v));
	v->ps = *ps;
	memset(ps, 0, sizeof(*ps));
	v->key = key;
	v->slot = -1;
	return 1;
}

/* A view site for @s in the next slot; no kernel address is kept (KASLR). */
static int describe(struct agent_sites *t, struct agent_site *s)
{
	struct profile_site *ps = profile_add_site(t->view);

	if (!ps)
		return -ENOMEM;
	probe_site_describe(&s->ps, ps);
	ps->address = 0;
	s->slot = (int32_t)ps->id;
	return 0;
}

int agent_sites_attach_pending(struct agent_sites *t)
{
	int attached = 0;
	size_t i;

	pthread_mutex_lock(&t->lock);
	for (i = 0; i < t->nr; i++) {
		struct agent_site *s = &t->v[i];
		uint32_t slot = s->slot >= 0 ? (uint32_t)s->slot : (uint32_t)t->view->nr_sites;

		if (s->state != AGENT_SITE_PLANNED)
			continue;
		if (slot >= t->cap) {
			p_warn("site %s: all %u slots of the session are taken; it is not counted",
			       s->key, t->cap);
			continue;
		}
		/* The file or module may have changed since the last attempt. */
		free(s->ps.resolved_path);
		s->ps.resolved_path = NULL;
		if (probe_site_resolve(&s->ps) || probe_site_attach(&s->ps, t->hs, slot)) {
			s->failures++;
			t->attach_failures++;
			continue;
		}
		if (s->slot < 0 && describe(t, s)) {
			hist_session_detach(t->hs, slot);
			continue;
		}
		s->state = AGENT_SITE_ATTACHED;
		s->since = wall_now();
		attached++;
	}
	pthread_mutex_unlock(&t->lock);
	return attached;
}

int agent_sites_follow(struct agent_sites *t)
{
	int n = 0;
	size_t i;

	pthread_mutex_lock(&t->lock);
	for (i = 0; i < t->nr; i++)
		if (t->v[i].state == AGENT_SITE_ATTACHED &&
		    uprobe_redeploy_check(&t->redeploy, t->hs, &t->v[i].ps,
					  (uint32_t)t->v[i].slot) > 0)
			n++;
	uprobe_redeploy_sweep(&t->redeploy);
	pthread_mutex_unlock(&t->lock);
	return n;
}

int agent_sites_read(struct agent_sites *t)
{
	size_t i;

	for (i = 0; i < t->view->nr_sites; i++) {
		struct profile_site *s = &t->view->sites[i];

		sparse_hist_clear(&s->buckets);
		site_align_clear(&s->align);
		site_dist_clear(&s->dist);
		site_exact_clear(&s->exact);
		site_cgroups_clear(&s->cgroups);
		site_order_clear(&s->order);
		if (hist_session_collect(t->hs, s->id, s))
			return -EIO;
	}
	return 0;
}

size_t agent_sites_count(const struct agent_sites *t, enum agent_site_state st)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr; i++)
		n += t->v[i].state == st;
	return n;
}

void agent_sites_detach(struct agent_sites *t, size_t i, enum agent_site_state why)
{
	struct agent_site *s = &t->v[i];

	if (s->state == AGENT_SITE_ATTACHED) {
		hist_session_detach(t->hs, (uint32_t)s->slot);
		uprobe_redeploy_drop_site(&t->redeploy, (uint32_t)s->slot);
	}
	if (s->state != why)
		s->since = wall_now();
	s->state = why;
}

void agent_sites_detach_all(struct agent_sites *t)
{
	size_t i;

	uprobe_redeploy_free(&t->redeploy);
	hist_session_destroy(t->hs);
	t->hs = NULL;
	for (i = 0; i < t->nr; i++)
		if (t->v[i].state == AGENT_SITE_ATTACHED)
			t->v[i].state = AGENT_SITE_PLANNED;
}

void agent_sites_close(struct agent_sites *t)
{
	size_t i;

	agent_sites_detach_all(t);
	for (i = 0; i < t->nr; i++) {
		probe_site_free(&t->v[i].ps);
		free(t->v[i].key);
	}
	free(t->v);
	t->v = NULL;
	t->nr = 0;
	profile_free(t->view);
	t->view = NULL;
	pthread_mutex_destroy(&t->lock);
}
