// SPDX-License-Identifier: GPL-2.0
/* feature.c: cheap checks first, so that a missing privilege or feature gets one clear message */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "feature.h"
#include "lib/log.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool has_cap(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

static int read_sysctl_int(const char *path, int *val);

int feature_check_bpf(void)
{
	int paranoid = 2;

	if (geteuid() != 0 && !(has_cap(CAP_BPF) && has_cap(CAP_PERFMON)) &&
	    !has_cap(CAP_SYS_ADMIN)) {
		read_sysctl_int("/proc/sys/kernel/perf_event_paranoid", &paranoid);
		p_err("recording needs root, or the capabilities CAP_BPF and CAP_PERFMON (BPF "
		      "programs on uprobes, kprobes and perf events; kernel.perf_event_paranoid is "
		      "%d, and even -1 does not let a user load them): run it with sudo, or "
		      "'setcap cap_bpf,cap_perfmon+ep copyprof'",
		      paranoid);
		return -EPERM;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		p_err("this kernel has no BTF (/sys/kernel/btf/vmlinux: %s); copyprof's CO-RE "
		      "programs need a kernel built with CONFIG_DEBUG_INFO_BTF=y",
		      strerror(errno));
		return -ENOTSUP;
	}
	return 0;
}

int feature_check_uprobes(void)
{
	if (!access("/sys/bus/event_source/devices/uprobe/type", R_OK) ||
	    !access("/sys/kernel/tracing/uprobe_events", R_OK) ||
	    !access("/sys/kernel/debug/tracing/uprobe_events", R_OK))
		return 0;
	p_err("this kernel has no uprobes (no uprobe PMU and no tracefs uprobe_events): it needs "
	      "CONFIG_UPROBE_EVENTS=y");
	return -ENOTSUP;
}

bool feature_has_kprobes(void)
{
	return !access("/sys/bus/event_source/devices/kprobe/type", R_OK) ||
	       !access("/sys/kernel/tracing/kprobe_events", R_OK) ||
	       !access("/sys/kernel/debug/tracing/kprobe_events", R_OK);
}

int feature_check_kprobes(void)
{
	if (feature_has_kprobes() && feature_lockdown() == LOCKDOWN_CONFIDENTIALITY) {
		p_err("the kernel is locked down (confidentiality, /sys/kernel/security/lockdown), "
		      "which refuses kprobes: use --hwbp (4 at most; breakpoints are allowed) or "
		      "record --sample, or boot with lockdown=integrity");
		return -EPERM;
	}
	if (feature_has_kprobes())
		return 0;
	p_err("this kernel has no kprobes (no kprobe PMU and no tracefs kprobe_events; it needs "
	      "CONFIG_KPROBE_EVENTS=y): use record --sample, or uprobes for user-space code");
	return -ENOTSUP;
}

enum lockdown_level feature_lockdown(void)
{
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");
	char line[128] = "";
	bool ok;

	if (!f)
		return LOCKDOWN_UNKNOWN; /* no lockdown LSM, or securityfs not mounted */
	ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	/* "none [integrity] confidentiality": the active level is bracketed. */
	if (!ok)
		return LOCKDOWN_UNKNOWN;
	if (strstr(line, "[confidentiality]"))
		return LOCKDOWN_CONFIDENTIALITY;
	return strstr(line, "[integrity]") ? LOCKDOWN_INTEGRITY : LOCKDOWN_NONE;
}

bool feature_bpf_reads_kernel(const char *what)
{
	static bool said;

	if (feature_lockdown() != LOCKDOWN_CONFIDENTIALITY)
		return true;
	if (!said)
		p_warn("the kernel is locked down (confidentiality): BPF may not read kernel "
		       "memory, "
		       "so %s",
		       what);
	said = true;
	return false;
}

void feature_explain_load_error(int err)
{
	if (feature_lockdown() == LOCKDOWN_CONFIDENTIALITY)
		p_err("the kernel refused the BPF program (%s) under lockdown=confidentiality "
		      "(/sys/kernel/security/lockdown), which forbids BPF reading kernel memory; "
		      "boot with lockdown=integrity or none",
		      strerror(-err));
	else if (err == -EPERM || err == -EACCES)
		p_err("the kernel refused to load the BPF program (%s): run as root or with "
		      "CAP_BPF and CAP_PERFMON; check kernel.unprivileged_bpf_disabled and "
		      "lockdown",
		      strerror(-err));
	else
		p_err("cannot load the BPF program: %s (run with -v to see the verifier log)",
		      strerror(-err));
}

static int read_sysctl_int(const char *path, int *val)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%d", val) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

void feature_explain_perf_event(int err, const char *event, unsigned int hz)
{
	int paranoid = 0, max_rate = 0;

	if (err == -EACCES || err == -EPERM) {
		if (read_sysctl_int("/proc/sys/kernel/perf_event_paranoid", &paranoid))
			paranoid = 2;
		p_err("not allowed to sample every CPU (perf_event_open: %s): system-wide sampling "
		      "needs CAP_PERFMON (or root) while kernel.perf_event_paranoid is %d; run as "
		      "root, grant CAP_PERFMON, or lower it with 'sysctl "
		      "kernel.perf_event_paranoid=0'",
		      strerror(-err), paranoid);
		return;
	}
	if (err == -EINVAL &&
	    !read_sysctl_int("/proc/sys/kernel/perf_event_max_sample_rate", &max_rate) &&
	    hz > (unsigned int)max_rate) {
		p_err("cannot sample %s at %u Hz: kernel.perf_event_max_sample_rate is %d", event,
		      hz, max_rate);
		return;
	}
	if (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV)
		p_err("this machine has no '%s' event (%s): try -e cpu-clock", event,
		      strerror(-err));
	else
		p_err("cannot open the '%s' sampling event: %s", event, strerror(-err));
}

int feature_check_perf_event(void)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_freq = 1,
		.freq = 1,
		.disabled = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	fd = -errno;
	feature_explain_perf_event(fd, "cpu-clock", 1);
	return fd;
}

bool feature_has_vma_helpers(void)
{
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_PERF_EVENT, BPF_FUNC_find_vma, NULL) == 1 &&
	       libbpf_probe_bpf_helper(BPF_PROG_TYPE_PERF_EVENT, BPF_FUNC_task_pt_regs, NULL) == 1;
}
