/* SPDX-License-Identifier: GPL-2.0 */
/* copy_share.h: BPF side only: the traced tasks' CPU samples, in the copy, in the traps or else */
#ifndef CP_COPY_SHARE_H
#define CP_COPY_SHARE_H

/*
 * Included once by hist.bpf.c, after task_filter.h. User space fills share_ranges with the
 * probed copy functions (entries with ino 0 are unused) and attaches cp_copy_share to a
 * cpu-clock event on every CPU; the samples of the tasks the filter passes are counted in
 * share_counts by enum cp_share_slot. A sample in user mode is placed by its instruction
 * pointer; one in the kernel by the user instruction pointer the task entered the kernel from:
 * at a probe's first byte + 1 it is the uprobe's trap (int3), in the uprobes' out-of-line page
 * the single step after it, inside a copy function a fault the copy took (its time), else the
 * program's own (a system call, another fault).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CP_SHARE_RANGES);
	__type(key, __u32);
	__type(value, struct share_range);
} share_ranges SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CP_NR_SHARE);
	__type(key, __u32);
	__type(value, __u64);
} share_counts SEC(".maps");

struct share_where {
	__u64 ip;
	__u32 slot;
	bool kernel;
};

/* The mapping that holds @w->ip: a probed copy function's range, or not. */
static long share_vma(struct task_struct *task, struct vm_area_struct *vma, void *data)
{
	struct share_where *w = data;
	struct file *file = BPF_CORE_READ(vma, vm_file);
	__u64 ino, off;
	__u32 i;

	if (!file)
		return 0;
	ino = BPF_CORE_READ(file, f_inode, i_ino);
	off = w->ip - BPF_CORE_READ(vma, vm_start) + (BPF_CORE_READ(vma, vm_pgoff) << 12);
	for (i = 0; i < CP_SHARE_RANGES; i++) {
		__u32 k = i;
		struct share_range *r = bpf_map_lookup_elem(&share_ranges, &k);

		if (!r || !r->ino)
			break;
		if (r->ino != ino || off < r->lo || off >= r->hi)
			continue;
		w->slot = w->kernel && off == r->lo + 1 ? CP_SHARE_TRAP : CP_SHARE_COPY;
		break;
	}
	return 0;
}

SEC("perf_event")
int cp_copy_share(struct bpf_perf_event_data *ctx)
{
	struct task_struct *task;
	struct share_where w = { .slot = CP_SHARE_OWN };
	struct pt_regs *user;
	__u64 xol, cs, *n;
	__u32 key;

	if (!task_filter_match())
		return 0;
	task = bpf_get_current_task_btf();
	if (!BPF_CORE_READ(task, mm))
		return 0; /* a kernel thread */
	/* The context is read 8 bytes at a time: cs's whole word (cs is its low 16 bits). */
	cs = ((const __u64 *)&ctx->regs)[__builtin_offsetof(struct pt_regs, cs) / 8];
	w.kernel = (cs & 3) != 3;
	if (w.kernel) {
		user = (struct pt_regs *)bpf_task_pt_regs(task);
		w.ip = BPF_CORE_READ(user, ip);
	} else {
		w.ip = ctx->regs.ip;
	}
	xol = BPF_CORE_READ(task, mm, uprobes_state.xol_area, vaddr);
	if (xol && w.ip >= xol && w.ip < xol + 4096)
		w.slot = CP_SHARE_TRAP;
	else
		bpf_find_vma(task, w.ip, share_vma, &w, 0);
	key = w.slot;
	n = bpf_map_lookup_elem(&share_counts, &key);
	if (n)
		*n += 1;
	return 0;
}

#endif
