/* SPDX-License-Identifier: GPL-2.0 */
/* agent_switch.h: an over-budget uprobe site moved to sampling of its function (bpf_find_vma) */
#ifndef CP_AGENT_SWITCH_H
#define CP_AGENT_SWITCH_H

#include <stdint.h>
#include "agent_sites.h"
#include "record/sample_session.h"

/* The function sampler: opened at the first move, one slot per moved site. */
struct agent_switch {
	struct sample_session *ss;
	uint32_t tgid;			  /* --pid; 0: every process */
	const char *comm;		  /* --comm, or NULL */
	const struct cgroup_set *cgroups; /* --cgroup's directories, or NULL */
	uint32_t hz;
	uint32_t nr; /* slots used */
	uint64_t moves;
};

/*
 * Moves site @i (attached, a uprobe) to sampling of the function it is in: its probe is
 * detached (its counts so far stay served, frozen) and samples of user-mode time in the
 * function are counted from now on. Returns 0 (the site is AGENT_SITE_SAMPLED) or -errno
 * with the reason in @why (then nothing changed).
 */
int agent_switch_site(struct agent_switch *w, struct agent_sites *t, size_t i, char *why,
		      size_t len);
/*
 * With the view's lock: appends one sampled site per moved site (mechanism "sample", leaf
 * the function, every sample's length unknown) to the view, in the order they moved.
 */
int agent_switch_append(struct agent_switch *w, const struct agent_sites *t, struct profile *view);
void agent_switch_stop(struct agent_switch *w);

#endif
