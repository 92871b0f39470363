/* SPDX-License-Identifier: GPL-2.0 */
/* fleet_selector.h: --selector's label matchers, shared out between the histograms and the info */
#ifndef CP_FLEET_SELECTOR_H
#define CP_FLEET_SELECTOR_H

#include <stddef.h>

/*
 * An agent's histograms carry the site's labels (target, symbol, family ...) and its
 * copyprof_agent_info the host's (kernel, host ...); both have cpu_model, and Prometheus adds
 * the target's (job, instance ...) to both. A matcher goes where its label is: a site label's to the
 * histograms, a host label's to the info (which the query joins), any other to both.
 */
/*
 * Labels of copyprof_agent_info alone, and of the site series alone (docs/fleet.md#series).
 * A scrape config's target label of the same name as one of the info's (host, with
 * honor_labels false) renames the agent's to exported_<name>: those are the info's too, so
 * that a join matches every other label the two series share, whatever the scrape config
 * adds or renames (docs/fleet.md#joins).
 */
#define FLEET_INFO_ONLY                                                                            \
	"kernel,host,version,cpu_flags,cgroup,exported_kernel,exported_host,exported_version,"     \
	"exported_cpu_flags,exported_cgroup"
#define FLEET_SITE_ONLY "target,symbol,offset,mechanism,label,family,leaf,le"

/*
 * The agents' info, one series per agent (target) seen in range @r, matched by @sel: what a
 * query joins a site series to for its kernel, CPU model and host.
 */
#define FLEET_INFO_EXPR(sel, r)                                                                    \
	"topk without (" FLEET_INFO_ONLY ") "                                                      \
	"(1, last_over_time(copyprof_agent_info" sel "[" r "]))"
/* Joins a site series (on the left) to FLEET_INFO_EXPR (on the right). */
#define FLEET_JOIN                                                                                 \
	"* ignoring (" FLEET_SITE_ONLY "," FLEET_INFO_ONLY ") group_left (cpu_model, kernel)"

struct fleet_selector {
	char *hist; /* "{...}" or "" */
	char *info;
};

/*
 * Parses @text ("{job=\"copyprof\",cpu_model=~\"AMD.*\"}": PromQL matchers, =, !=, =~, !~,
 * strings in "", '' or ``) into @out. -EINVAL with why in @why, -ENOMEM.
 */
int fleet_selector_split(const char *text, struct fleet_selector *out, char *why, size_t len);
void fleet_selector_free(struct fleet_selector *s);

#endif
