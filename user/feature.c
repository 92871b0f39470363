// SPDX-License-Identifier: GPL-2.0
/* feature.c: cheap checks first, so that a missing privilege or feature gets one clear message */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include "feature.h"
#include "log.h"

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

int feature_check_bpf(void)
{
	if (geteuid() != 0 && !(has_cap(CAP_BPF) && has_cap(CAP_PERFMON)) &&
	    !has_cap(CAP_SYS_ADMIN)) {
		p_err("recording needs root, or CAP_BPF and CAP_PERFMON: run it with sudo, or "
		      "'setcap cap_bpf,cap_perfmon+ep copyprof'");
		return -EPERM;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		p_err("this kernel has no BTF (/sys/kernel/btf/vmlinux: %s); copyprof's CO-RE "
		      "programs need a kernel built with CONFIG_DEBUG_INFO_BTF=y", strerror(errno));
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
	if (feature_has_kprobes())
		return 0;
	p_err("this kernel has no kprobes (no kprobe PMU and no tracefs kprobe_events; it needs "
	      "CONFIG_KPROBE_EVENTS=y): use record --sample, or uprobes for user-space code");
	return -ENOTSUP;
}

void feature_explain_load_error(int err)
{
	if (err == -EPERM || err == -EACCES)
		p_err("the kernel refused to load the BPF program (%s): run as root or with "
		      "CAP_BPF and CAP_PERFMON; check kernel.unprivileged_bpf_disabled and lockdown",
		      strerror(-err));
	else
		p_err("cannot load the BPF program: %s (run with -v to see the verifier log)",
		      strerror(-err));
}
