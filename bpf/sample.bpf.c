// SPDX-License-Identifier: GPL-2.0
/* sample.bpf.c: timed kernel samples; copy-family leaves with their stacks and registers */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "cp_shared.h"
#include "task_filter.h"
#include "sample.h"

const volatile __u32 targ_nr_ranges = 0;
/* Count a rep movs/stos instruction outside the ranges as an inline copy. */
const volatile bool targ_inline_reps = true;
/* Off under lockdown=confidentiality, which refuses programs that read kernel memory. */
const volatile bool targ_read_text = true;

/* Sample the user functions in funcs (bpf_find_vma, 5.17+): off unless the agent asks. */
const volatile bool targ_user_funcs = false;
/* record --user-stacks: each copy sample's user stack too (ustackmap). */
const volatile bool targ_user_stacks = false;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SAMPLE_MAX_FUNCS);
	__type(key, __u32);
	__type(value, struct sample_func);
} funcs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SAMPLE_MAX_FUNCS);
	__type(key, __u32);
	__type(value, __u64);
} func_counts SEC(".maps");

/* Sorted by start, non-overlapping; user space sizes and fills it before attaching. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sample_range);
} ranges SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SAMPLE_CNT_NR);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, SAMPLE_STACK_DEPTH * sizeof(__u64));
} stackmap SEC(".maps");

/* User stacks (--user-stacks); user space shrinks it to 1 entry otherwise. */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, SAMPLE_STACK_DEPTH * sizeof(__u64));
} ustackmap SEC(".maps");

/*
 * Copy-family samples per (kernel stack, user stack, process): the counts stay right even if
 * records are lost, and say whose they were.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct sample_stack_key);
	__type(value, struct sample_stack_val);
} stack_counts SEC(".maps");

/* --user-stacks: processes seen, so that the first record of each wakes user space at once. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u8);
} seen_tgids SEC(".maps");

#define RB_BYTES (4 << 20)
#define RB_WAKEUP_BYTES (RB_BYTES / 4) /* wake the reader early only when a quarter is used */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RB_BYTES);
} samples SEC(".maps");

static __always_inline void count(__u32 which)
{
	__u64 *v = bpf_map_lookup_elem(&counters, &which);

	if (v)
		__sync_fetch_and_add(v, 1);
}

/* The --pid, --cgroup and --comm filters (task_filter.h). */
static __always_inline bool task_wanted(void)
{
	return task_filter_match();
}

/* The kind of the range holding @ip, or 0. Binary search, bounded for the verifier. */
static __always_inline __u32 range_kind(__u64 ip)
{
	__u32 lo = 0, hi = targ_nr_ranges, i, mid;
	struct sample_range *r;

	for (i = 0; i < 12 && lo < hi; i++) { /* 2^11 > SAMPLE_MAX_RANGES */
		mid = (lo + hi) / 2;
		r = bpf_map_lookup_elem(&ranges, &mid);
		if (!r)
			return 0;
		if (r->start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	mid = lo - 1;
	r = bpf_map_lookup_elem(&ranges, &mid);
	return r && ip < r->end ? r->kind : 0;
}

/* The user function (in funcs) whose file holds @data's IP in @vma: counted in func_counts. */
static long count_func(struct task_struct *task, struct vm_area_struct *vma, void *data)
{
	__u64 ip = *(__u64 *)data, ino, off;
	struct sample_func *f;
	struct file *file;
	__u32 i, dev;
	__u64 *cnt;

	file = BPF_CORE_READ(vma, vm_file);
	if (!file)
		return 0;
	ino = BPF_CORE_READ(file, f_inode, i_ino);
	dev = BPF_CORE_READ(file, f_inode, i_sb, s_dev);
	off = ip - BPF_CORE_READ(vma, vm_start) + (BPF_CORE_READ(vma, vm_pgoff) << 12);
	for (i = 0; i < SAMPLE_MAX_FUNCS; i++) {
		__u32 k = i;

		f = bpf_map_lookup_elem(&funcs, &k);
		if (!f || !f->ino)
			continue;
		if (f->ino != ino || f->dev != dev || off < f->start || off >= f->end)
			continue;
		cnt = bpf_map_lookup_elem(&func_counts, &k);
		if (cnt)
			*cnt += 1; /* per CPU */
		break;
	}
	return 0;
}

/* rep movs/stos (optionally REX-prefixed): an inlined memcpy, memset or clear_user. */
static __always_inline bool is_rep_string(const __u8 *b)
{
	__u8 op = b[1];

	if (b[0] != 0xf3)
		return false;
	if ((op & 0xf0) == 0x40)
		op = b[2];
	return op == 0xa4 || op == 0xa5 || op == 0xaa || op == 0xab;
}

SEC("perf_event")
int cp_sample(struct bpf_perf_event_data *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)&ctx->regs;
	__u64 ip = regs->ip, pid_tgid;
	struct sample_stack_key key = { .ustack = -1 };
	struct sample_stack_val first = { .count = 1 }, *cnt;
	struct sample_rec *rec;
	__u8 insn[SAMPLE_INSN_BYTES] = {}, seen = 1, new_task = 0;
	__u32 kind, tgid;
	__s32 stackid, ustackid = -1;

	if (!task_wanted())
		return 0;
	pid_tgid = bpf_get_current_pid_tgid();
	count(SAMPLE_CNT_TOTAL);
	if (!(__u32)pid_tgid)
		count(SAMPLE_CNT_IDLE);
	if (ip < 0xffff800000000000ULL) { /* user mode: never a kernel copy routine */
		if (targ_user_funcs)
			bpf_find_vma(bpf_get_current_task_btf(), ip, count_func, &ip, 0);
		return 0;
	}
	kind = range_kind(ip);
	if (kind == SAMPLE_RANGE_SKIP)
		return 0;
	if (targ_read_text)
		bpf_probe_read_kernel(insn, sizeof(insn), (void *)ip);
	if (kind == SAMPLE_RANGE_LEAF)
		kind = SAMPLE_LEAF_RANGE;
	else if (targ_inline_reps && is_rep_string(insn))
		kind = SAMPLE_LEAF_INLINE;
	else
		return 0;
	count(SAMPLE_CNT_COPY);

	stackid = bpf_get_stackid(ctx, &stackmap, 0);
	tgid = pid_tgid >> 32;
	if (targ_user_stacks) {
		/* Kernel threads have no user stack (-EFAULT). */
		ustackid = bpf_get_stackid(ctx, &ustackmap, BPF_F_USER_STACK);
		new_task = !bpf_map_update_elem(&seen_tgids, &tgid, &seen, BPF_NOEXIST);
	}
	if (stackid < 0) {
		count(SAMPLE_CNT_NOSTACK);
	} else {
		key.kstack = stackid;
		key.ustack = ustackid < 0 ? -1 : ustackid;
		key.tgid = tgid;
		cnt = bpf_map_lookup_elem(&stack_counts, &key);
		if (!cnt) {
			bpf_get_current_comm(first.comm, sizeof(first.comm));
			if (bpf_map_update_elem(&stack_counts, &key, &first, BPF_NOEXIST))
				/* Another CPU inserted it first, or the map is full. */
				if ((cnt = bpf_map_lookup_elem(&stack_counts, &key)))
					__sync_fetch_and_add(&cnt->count, 1);
		} else {
			__sync_fetch_and_add(&cnt->count, 1);
		}
	}

	rec = bpf_ringbuf_reserve(&samples, sizeof(*rec), 0);
	if (!rec) {
		count(SAMPLE_CNT_LOST);
		return 0;
	}
	rec->ip = ip;
	rec->gprs[0] = regs->ax;
	rec->gprs[1] = regs->bx;
	rec->gprs[2] = regs->cx;
	rec->gprs[3] = regs->dx;
	rec->gprs[4] = regs->si;
	rec->gprs[5] = regs->di;
	rec->gprs[6] = regs->bp;
	rec->gprs[7] = regs->sp;
	rec->gprs[8] = regs->r8;
	rec->gprs[9] = regs->r9;
	rec->gprs[10] = regs->r10;
	rec->gprs[11] = regs->r11;
	rec->gprs[12] = regs->r12;
	rec->gprs[13] = regs->r13;
	rec->gprs[14] = regs->r14;
	rec->gprs[15] = regs->r15;
	rec->stackid = stackid;
	rec->ustackid = ustackid;
	rec->tgid = tgid;
	rec->pid = (__u32)pid_tgid;
	bpf_get_current_comm(rec->comm, sizeof(rec->comm));
	rec->leaf_kind = (__u8)kind;
	rec->new_task = new_task;
	__builtin_memcpy(rec->insn, insn, sizeof(insn));
	/*
	 * No wakeup per record: user space drains every 100 ms. A wakeup per sample would
	 * schedule the recorder on every copy sample, which costs more than the sample itself.
	 * A new process's first one wakes it: its user stacks are named from its maps, read while
	 * it still runs.
	 */
	bpf_ringbuf_submit(rec, new_task || bpf_ringbuf_query(&samples, BPF_RB_AVAIL_DATA) >=
							RB_WAKEUP_BYTES
					? BPF_RB_FORCE_WAKEUP
					: BPF_RB_NO_WAKEUP);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
