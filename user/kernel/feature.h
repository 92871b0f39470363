/* SPDX-License-Identifier: GPL-2.0 */
/* feature.h: can this process trace here? privileges and kernel features, with clear reasons */
#ifndef CP_FEATURE_H
#define CP_FEATURE_H

#include <stdbool.h>

/* Checks privileges (root, or CAP_BPF + CAP_PERFMON) and BTF; prints what is missing. */
int feature_check_bpf(void);
/* Checks that the kernel can place uprobes; prints what is missing. */
int feature_check_uprobes(void);
/* True if the kernel can place kprobes (kprobe PMU or tracefs kprobe_events). */
bool feature_has_kprobes(void);
/* Like feature_has_kprobes(), but prints what is missing. */
int feature_check_kprobes(void);
/* Explains a failed BPF object load (-errno). */
void feature_explain_load_error(int err);

/* The kernel's lockdown (kernel_lockdown(7)), from /sys/kernel/security/lockdown. */
enum lockdown_level {
	LOCKDOWN_UNKNOWN,
	LOCKDOWN_NONE,
	LOCKDOWN_INTEGRITY,
	LOCKDOWN_CONFIDENTIALITY
};
enum lockdown_level feature_lockdown(void);
/*
 * Whether BPF may read kernel memory (bpf_probe_read_kernel): not under confidentiality
 * lockdown, which refuses to load any program that calls it. Says so once, naming @what is lost.
 */
bool feature_bpf_reads_kernel(const char *what);
/*
 * Whether a perf_event BPF program may call bpf_find_vma and bpf_task_pt_regs (Linux 5.17 and
 * later), which the copies' share sampler needs (bpf/copy_share.h).
 */
bool feature_has_vma_helpers(void);
/*
 * Checks that this process may sample every CPU (perf_event_open of cpu-clock, system-wide);
 * prints what is missing (kernel.perf_event_paranoid, CAP_PERFMON).
 */
int feature_check_perf_event(void);
/* Explains a failed perf_event_open (-errno) of @event at @hz samples per second. */
void feature_explain_perf_event(int err, const char *event, unsigned int hz);

#endif
