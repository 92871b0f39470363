/* SPDX-License-Identifier: GPL-2.0 */
/* task_filter.h: BPF side only: the --pid/--comm/--cgroup filter on the current task, one copy per program */
#ifndef CP_TASK_FILTER_H
#define CP_TASK_FILTER_H

/*
 * Included once by each .bpf.c that filters tasks, after vmlinux.h, bpf_helpers.h and
 * cp_shared.h. The filter globals are defined here so that every program's skeleton has the
 * same rodata fields, set by user space before load: targ_tgid (0: any process), when
 * targ_filter_comm, targ_comm (the task's exact comm, NUL-terminated), and when
 * targ_nr_cgroups is not 0, the cgroups v2 whose fds user space puts in task_cgroup[0 ..
 * targ_nr_cgroups - 1]: the task must be in one of them or below it
 * (bpf_current_task_under_cgroup, whatever cgroup namespace it is in). An array of directories
 * rather than a hash of cgroup ids: a cgroup's id names it alone, not the cgroups below it.
 *
 * With targ_inherit, the processes that targ_tgid forks, and theirs, pass too (record -- CMD
 * follows a wrapper's children, as perf's inherit does): cp_follow_fork adds each new process
 * of a followed parent to followed, cp_follow_exit takes it out when its last thread exits.
 * user/record/task_follow.c loads and attaches the two only then; a fork that finds followed
 * full is counted in not_followed, which user space reports.
 */
const volatile __u32 targ_tgid = 0;
const volatile bool targ_filter_comm = false;
const volatile char targ_comm[CP_COMM_LEN] = {};
const volatile bool targ_inherit = false;
const volatile __u32 targ_nr_cgroups = 0; /* at most CP_MAX_CGROUP_FILTERS */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CP_MAX_FOLLOWED);
	__type(key, __u32);
	__type(value, __u8);
} followed SEC(".maps");

__u64 not_followed = 0;

static __always_inline bool tgid_followed(__u32 tgid)
{
	return tgid == targ_tgid || (targ_inherit && bpf_map_lookup_elem(&followed, &tgid));
}

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, CP_MAX_CGROUP_FILTERS);
	__type(key, __u32);
	__type(value, __u32);
} task_cgroup SEC(".maps");

/* True if the current task is in one of the --cgroup directories or below one. */
static __always_inline bool task_cgroup_match(void)
{
	__u32 i;

	for (i = 0; i < CP_MAX_CGROUP_FILTERS && i < targ_nr_cgroups; i++)
		if (bpf_current_task_under_cgroup(&task_cgroup, i) == 1)
			return true;
	return false;
}

/* True if the current task passes the tgid, cgroup and comm filters. */
static __always_inline bool task_filter_match(void)
{
	char comm[CP_COMM_LEN];
	int i;

	if (targ_tgid && !tgid_followed(bpf_get_current_pid_tgid() >> 32))
		return false;
	if (targ_nr_cgroups && !task_cgroup_match())
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

/* A new process (not a thread) of a followed one is followed too. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(cp_follow_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	__u8 one = 1;

	if (ptgid == ctgid || !tgid_followed(ptgid))
		return 0;
	if (bpf_map_update_elem(&followed, &ctgid, &one, BPF_ANY))
		__sync_fetch_and_add(&not_followed, 1);
	return 0;
}

/* The last thread of a followed process is gone: its tgid may be reused by anyone. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(cp_follow_exit, struct task_struct *task)
{
	__u32 tgid = task->tgid;

	if (task->signal->live.counter)
		return 0;
	bpf_map_delete_elem(&followed, &tgid);
	return 0;
}

#endif
