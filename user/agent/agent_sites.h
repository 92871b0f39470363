/* SPDX-License-Identifier: GPL-2.0 */
/* agent_sites.h: the agent's live sites: planned, attached into one BPF session, read at scrape time */
#ifndef CP_AGENT_SITES_H
#define CP_AGENT_SITES_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "profile/profile.h"
#include "record/hist_session.h"
#include "record/probe_site.h"
#include "record/uprobe_redeploy.h"

enum agent_site_state {
	AGENT_SITE_PLANNED,	/* not attached yet (or its last attempt failed) */
	AGENT_SITE_ATTACHED,	/* counting */
	AGENT_SITE_OVER_BUDGET, /* detached by the overhead budget; its counts stay served */
	AGENT_SITE_SAMPLED,	/* over budget, its function sampled instead (agent_switch.h) */
	AGENT_NR_SITE_STATES
};

const char *agent_site_state_name(enum agent_site_state s);

struct agent_site {
	struct probe_site ps;
	char *key; /* mechanism, target, symbol and offset: one entry per place */
	enum agent_site_state state;
	double since; /* when it entered @state, seconds since the epoch (0: never attached) */
	int32_t slot; /* its id in the session and in the view; -1: none yet */
	uint64_t hits_mark;    /* hits counted when the budget last looked (site_calls) */
	uint64_t window_hits;  /* in the budget's last window */
	double window_cost_ns; /* ... their estimated cost to the traced processes */
	double cost_ns_total;  /* estimated since the start (agent_traced.h) */
	unsigned int failures;
	int32_t func; /* AGENT_SITE_SAMPLED: its slot in the function sampler */
};

/*
 * What a site's calls are, as /metrics and /profile say it (docs/fleet.md#partial-sites):
 * "counting" (attached), "sampled" (moved to sampling: its calls froze then), "detached"
 * (over budget, or not attached again); NULL for a site never attached (it has no series).
 */
const char *agent_site_calls_state(const struct agent_site *a);

/* Every site, the session that counts them and the profile they are served as. */
struct agent_sites {
	pthread_mutex_t lock; /* held while the view is read or the table changes */
	struct hist_session *hs;
	uint32_t cap; /* the session's slots: sites added later take free ones */
	struct agent_site *v;
	size_t nr;
	struct profile *view; /* meta and one site per slot, counts filled by agent_sites_read */
	uint64_t attach_failures;
	struct uprobe_redeploy redeploy; /* uprobe files replaced under their paths */
};

/* Opens the session with @cap slots (at most CP_MAX_SITES); @view is taken. Prints why. */
int agent_sites_open(struct agent_sites *t, const struct hist_filter *f, uint32_t cap,
		     struct profile *view);
/* Adds @ps (taken, zeroed) unless a site of the same place is there (then freed): 1 added. */
int agent_sites_add(struct agent_sites *t, struct probe_site *ps);
/*
 * Resolves and attaches every planned site while slots are free; a site that fails stays
 * planned for the next re-plan and never stops the others. Returns how many were attached.
 */
int agent_sites_attach_pending(struct agent_sites *t);
/*
 * Attaches every attached uprobe site whose file was replaced under its path (a deploy's
 * rename) to the new file, and detaches the old files' probes no process maps any more
 * (uprobe_redeploy.h); says so. Returns how many sites were re-attached.
 */
int agent_sites_follow(struct agent_sites *t);
/* With the lock held: every slot's counts, summed over CPUs, into the view. 0 or -EIO. */
int agent_sites_read(struct agent_sites *t);
/* How many sites are in state @s. */
size_t agent_sites_count(const struct agent_sites *t, enum agent_site_state s);
/* Detaches site @i (index in v) and marks it @why; its counts stay in the view. */
void agent_sites_detach(struct agent_sites *t, size_t i, enum agent_site_state why);
/* With the lock held: every probe detached and the session gone (the view stays). */
void agent_sites_detach_all(struct agent_sites *t);
void agent_sites_close(struct agent_sites *t);

#endif
