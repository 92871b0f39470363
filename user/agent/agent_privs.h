/* SPDX-License-Identifier: GPL-2.0 */
/* agent_privs.h: give up every capability the agent no longer needs once its probes are attached */
#ifndef CP_AGENT_PRIVS_H
#define CP_AGENT_PRIVS_H

/*
 * Keeps CAP_BPF and CAP_PERFMON (reading the maps, attaching at a re-plan), CAP_SYSLOG
 * (kallsyms' addresses at a re-plan) and CAP_SYS_ADMIN (a uprobe's perf_event_open wants it,
 * measured), or CAP_SYS_ADMIN and CAP_SYSLOG on a kernel without CAP_BPF; drops
 * every other capability from the effective, permitted, inheritable and bounding sets and
 * sets no_new_privs. Says what it kept; a process without capabilities has nothing to drop.
 */
void agent_privs_drop(void);

#endif
