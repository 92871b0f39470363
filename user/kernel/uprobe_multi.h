/* SPDX-License-Identifier: GPL-2.0 */
/* uprobe_multi.h: uprobes as BPF links (Linux 6.6+): attached with CAP_BPF and CAP_PERFMON alone */
#ifndef CP_UPROBE_MULTI_H
#define CP_UPROBE_MULTI_H

#include <stdbool.h>
#include <stdint.h>

/* enum bpf_attach_type's BPF_TRACE_UPROBE_MULTI, which Debian 12's headers do not have yet. */
#define UPROBE_MULTI_ATTACH_TYPE 48

/*
 * Whether this kernel takes a kprobe-type program meant for uprobe_multi links: a trivial
 * one is loaded once. A perf-event uprobe needs CAP_SYS_ADMIN (docs/fleet.md#privileges),
 * a uprobe_multi link does not.
 */
bool uprobe_multi_supported(void);
/*
 * Attaches @prog_fd (loaded with UPROBE_MULTI_ATTACH_TYPE) at @file_offset of @path, every
 * process, with @cookie for bpf_get_attach_cookie(). Returns the link's fd (close() detaches)
 * or -errno.
 */
int uprobe_multi_attach(int prog_fd, const char *path, uint64_t file_offset, uint64_t cookie);

#endif
