// SPDX-License-Identifier: GPL-2.0
/* agent_privs.c: drop capabilities after attaching (capget/capset, prctl), keep what re-plans need */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include "agent_privs.h"
#include "lib/log.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static void cap_set(struct __user_cap_data_struct d[2], int cap)
{
	d[cap / 32].effective |= 1U << (cap % 32);
	d[cap / 32].permitted |= 1U << (cap % 32);
}

static bool cap_known(int cap)
{
	return prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0;
}

static bool cap_permitted(const struct __user_cap_data_struct have[2], int cap)
{
	return have[cap / 32].permitted & (1U << (cap % 32));
}

void agent_privs_drop(bool sys_admin)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct have[2], keep[2];
	int cap, keep_list[5], n = 0, i;
	char kept[128] = "";

	if (syscall(SYS_capget, &h, have)) {
		p_warn("cannot read the agent's capabilities: %s", strerror(errno));
		return;
	}
	if (!have[0].effective && !have[1].effective)
		return;
	if (cap_known(CAP_BPF)) {
		keep_list[n++] = CAP_BPF;
		keep_list[n++] = CAP_PERFMON;
		if (sys_admin)
			keep_list[n++] = CAP_SYS_ADMIN;
	} else {
		keep_list[n++] = CAP_SYS_ADMIN;
	}
	keep_list[n++] = CAP_SYSLOG;
	memset(keep, 0, sizeof(keep));
	for (i = 0; i < n; i++) {
		if (!cap_permitted(have, keep_list[i]))
			continue;
		cap_set(keep, keep_list[i]);
		snprintf(kept + strlen(kept), sizeof(kept) - strlen(kept), "%s%s",
			 *kept ? ", " : "",
			 keep_list[i] == CAP_BPF       ? "CAP_BPF"
			 : keep_list[i] == CAP_PERFMON ? "CAP_PERFMON"
			 : keep_list[i] == CAP_SYSLOG  ? "CAP_SYSLOG"
						       : "CAP_SYS_ADMIN");
	}
	/* The bounding set first: dropping from it needs CAP_SETPCAP, which goes next. */
	for (cap = 0; cap_known(cap); cap++) {
		bool kept_cap = false;

		for (i = 0; i < n; i++)
			kept_cap |= keep_list[i] == cap;
		if (!kept_cap && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			break;
	}
	/* Ambient capabilities (a systemd unit's AmbientCapabilities=) go with the rest. */
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (syscall(SYS_capset, &h, keep)) {
		p_warn("cannot drop capabilities: %s", strerror(errno));
		return;
	}
	p_info("probes attached: dropped every capability but %s%s", *kept ? kept : "none",
	       strstr(kept, "CAP_SYS_ADMIN") && cap_known(CAP_BPF)
		       ? " (CAP_SYS_ADMIN: re-plans open perf-event uprobes or kprobes)"
		       : "");
}
