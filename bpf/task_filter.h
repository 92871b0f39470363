/* SPDX-License-Identifier: GPL-2.0 */
/* task_filter.h: BPF side only: the --pid/--comm/--cgroup filter on the current task, one copy per program */
#ifndef CP_TASK_FILTER_H
#define CP_TASK_FILTER_H

/*
 * Included once by each .bpf.c that filters tasks, after vmlinux.h, bpf_helpers.h and
 * cp_shared.h. The filter globals are defined here so that every program's skeleton has the
 * same rodata fields, set by user space before load: targ_tgid (0: any process), when
 * targ_filter_comm, targ_comm (the task's exact comm, NUL-terminated), and when
 * targ_filter_cgroup, the cgroup v2 whose fd user space puts in task_cgroup[0]: the task must
 * be in it or below it (bpf_current_task_under_cgroup, whatever cgroup namespace it is in).
 */
const volatile __u32 targ_tgid = 0;
const volatile bool targ_filter_comm = false;
const volatile char targ_comm[CP_COMM_LEN] = {};
const volatile bool targ_filter_cgroup = false;

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} task_cgroup SEC(".maps");

/* True if the current task passes the tgid, cgroup and comm filters. */
static __always_inline bool task_filter_match(void)
{
	char comm[CP_COMM_LEN];
	int i;

	if (targ_tgid && (bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return false;
	if (targ_filter_cgroup && bpf_current_task_under_cgroup(&task_cgroup, 0) != 1)
		return false;
	if (!targ_filter_comm)
		return true;
	bpf_get_current_comm(comm, sizeof(comm));
	for (i = 0; i < CP_COMM_LEN; i++) {
		if (comm[i] != targ_comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

#endif
