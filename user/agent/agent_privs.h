/* SPDX-License-Identifier: GPL-2.0 */
/* agent_privs.h: give up every capability the agent no longer needs once its probes are attached */
#ifndef CP_AGENT_PRIVS_H
#define CP_AGENT_PRIVS_H

#include <stdbool.h>

/*
 * Keeps CAP_BPF and CAP_PERFMON (reading the maps, attaching and sampling at a re-plan or a
 * budget move) and CAP_SYSLOG (kallsyms' addresses at a re-plan); CAP_SYS_ADMIN only when
 * @sys_admin (a perf-event uprobe or kprobe wants it: docs/fleet.md#privileges), and on a
 * kernel without CAP_BPF. Drops every other capability from the effective, permitted,
 * inheritable and bounding sets and sets no_new_privs. Says what it kept; a process without
 * capabilities has nothing to drop, and one without CAP_SYS_ADMIN keeps none.
 */
void agent_privs_drop(bool sys_admin);

#endif
