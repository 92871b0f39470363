// SPDX-License-Identifier: GPL-2.0
/* hist.bpf.c: count copy lengths per (site, bucket) at uprobes, kprobes and perf events */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "cp_shared.h"
#include "task_filter.h"
#include "footprint_sample.h"

const volatile __u32 targ_nr_sites = 0;
/* Off under lockdown=confidentiality: the verifier then never sees bpf_probe_read_kernel. */
const volatile bool targ_callers = false;
/* Uprobe entry sites count their callers (bpf_probe_read_user, bpf_find_vma: 5.17+); off with
 * targ_callers under lockdown, where libbpf makes bpf_probe_read_user a refused bpf_probe_read. */
const volatile bool targ_user_callers = false;
/* Counted sites attribute their calls to the caller's cgroup (cgroup_calls). */
const volatile bool targ_cgroups = false;

/* site * CP_NBUCKETS + bucket; user space sizes it before load. Per-CPU: no lost counts. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CP_NBUCKETS);
	__type(key, __u32);
	__type(value, struct hist_slot);
} hists SEC(".maps");

/* site * CP_ALIGN_SLOTS + (address & 63) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CP_ALIGN_SLOTS);
	__type(key, __u32);
	__type(value, struct align_slot);
} aligns SEC(".maps");

/* site * CP_NBUCKETS + bucket: calls by pointer distance class, sites with both pointers */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CP_NBUCKETS);
	__type(key, __u32);
	__type(value, struct dist_slot);
} dists SEC(".maps");

/* (site, length) -> calls for lengths from CP_EXACT_LIMIT; sized nr_sites * CP_EXACT_PER_SITE. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CP_EXACT_PER_SITE);
	__type(key, struct exact_key);
	__type(value, __u64);
} exacts SEC(".maps");

/* site -> the distinct lengths it has taken in exacts (at most CP_EXACT_PER_SITE enter). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} exact_used SEC(".maps");

/* site -> its sampled runs of consecutive lengths on this CPU (struct order_slot). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CP_MAX_SITES);
	__type(key, __u32);
	__type(value, struct order_slot);
} orders SEC(".maps");

/*
 * Entry sites: (site, caller, bucket) -> calls and bytes. A hash shared by all CPUs, with
 * atomic adds; calls that find it full are counted in caller_misses, never silently lost.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CP_MAX_CALLER_SLOTS);
	__type(key, struct caller_key);
	__type(value, struct hist_slot);
} callers SEC(".maps");

/* Uprobe entry sites: (site, caller's file and offset, bucket) -> calls and bytes, as callers. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CP_MAX_CALLER_SLOTS);
	__type(key, struct ucaller_key);
	__type(value, struct hist_slot);
} ucallers SEC(".maps");

/*
 * A return address's file and offset, found once by bpf_find_vma (about 0.8 us a call here) and
 * then looked up: a process (its mm and tgid; exec gives a new mm) calls from a few places.
 */
struct ucaller_where {
	__u64 ret;
	__u64 mm;
	__u32 tgid;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, struct ucaller_where);
	__type(value, struct ucaller_key);
} ucaller_cache SEC(".maps");

/* Per site: calls whose caller found the table full. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CP_MAX_SITES);
	__type(key, __u32);
	__type(value, __u64);
} caller_misses SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CP_MAX_SITES);
	__type(key, __u32);
	__type(value, struct site_cfg);
} sites SEC(".maps");

/*
 * Per site: calls counted, all buckets together. One lookup reads a site's progress, which
 * multiplexed breakpoints read at every rotation (the reference site, hwbp_mux.c).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CP_MAX_SITES);
	__type(key, __u32);
	__type(value, __u64);
} site_calls SEC(".maps");

/* Per site: calls by cgroup v2 id, CP_CGROUP_SLOTS first come on each CPU (cp_shared.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CP_MAX_SITES);
	__type(key, __u32);
	__type(value, struct cgroup_slots);
} cgroup_calls SEC(".maps");

/* Multiplexed breakpoints: the breakpointed instruction's address -> site id. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CP_MAX_SITES);
	__type(key, __u64);
	__type(value, __u32);
} bp_sites SEC(".maps");

/*
 * The registers a site may read, copied out at fixed offsets. A switch over pt_regs fields
 * compiles into one load at a variable context offset, which the verifier refuses.
 * User space turns argN into the register that holds it (regs.c), so only GPRs appear here.
 */
struct gprs {
	__u64 v[CP_REG_COUNT - CP_REG_RAX];
};

static __always_inline void gprs_snap(struct pt_regs *regs, struct gprs *g)
{
	g->v[CP_REG_RAX - CP_REG_RAX] = regs->ax;
	g->v[CP_REG_RBX - CP_REG_RAX] = regs->bx;
	g->v[CP_REG_RCX - CP_REG_RAX] = regs->cx;
	g->v[CP_REG_RDX - CP_REG_RAX] = regs->dx;
	g->v[CP_REG_RSI - CP_REG_RAX] = regs->si;
	g->v[CP_REG_RDI - CP_REG_RAX] = regs->di;
	g->v[CP_REG_RBP - CP_REG_RAX] = regs->bp;
	g->v[CP_REG_RSP - CP_REG_RAX] = regs->sp;
	g->v[CP_REG_R8 - CP_REG_RAX] = regs->r8;
	g->v[CP_REG_R9 - CP_REG_RAX] = regs->r9;
	g->v[CP_REG_R10 - CP_REG_RAX] = regs->r10;
	g->v[CP_REG_R11 - CP_REG_RAX] = regs->r11;
	g->v[CP_REG_R12 - CP_REG_RAX] = regs->r12;
	g->v[CP_REG_R13 - CP_REG_RAX] = regs->r13;
	g->v[CP_REG_R14 - CP_REG_RAX] = regs->r14;
	g->v[CP_REG_R15 - CP_REG_RAX] = regs->r15;
}

static __always_inline __u64 gprs_get(const struct gprs *g, __u8 reg)
{
	__u32 i = (__u32)reg - CP_REG_RAX;

	return i < CP_REG_COUNT - CP_REG_RAX ? g->v[i] : 0;
}

static __always_inline void count_align(__u32 site, __u64 dst, __u64 src,
					const struct site_cfg *cfg)
{
	__u32 key = site * CP_ALIGN_SLOTS;
	struct align_slot *slot;

	if (cfg->dst_reg) {
		__u32 k = key + (dst & (CP_ALIGN_SLOTS - 1));

		slot = bpf_map_lookup_elem(&aligns, &k);
		if (slot)
			__sync_fetch_and_add(&slot->dst, 1);
	}
	if (cfg->src_reg) {
		__u32 k = key + (src & (CP_ALIGN_SLOTS - 1));

		slot = bpf_map_lookup_elem(&aligns, &k);
		if (slot)
			__sync_fetch_and_add(&slot->src, 1);
	}
}

/* One call at (site, bucket) @key into its distance class: one lookup, one add. */
static __always_inline void count_dist(__u32 key, __u64 dst, __u64 src, const struct site_cfg *cfg)
{
	struct dist_slot *slot;
	__u32 c;

	if (!cfg->dst_reg || !cfg->src_reg)
		return;
	slot = bpf_map_lookup_elem(&dists, &key);
	c = cp_dist_class(dst, src);
	if (slot && c < CP_NR_DIST)
		__sync_fetch_and_add(&slot->c[c], 1);
}

/*
 * One call of @len bytes at @site by its exact length: one lookup where the length has its
 * slot; a new length takes one of the site's CP_EXACT_PER_SITE slots while there are any. Two
 * CPUs entering the same length at once: the second's insert fails and it adds to the first's;
 * one that finds the slots gone looks again, and adds where another CPU has just entered it
 * (only a call between the other's taking the last slot and its insert is missed).
 */
static __always_inline void count_exact(__u32 site, __u64 len)
{
	struct exact_key k = { .len = len, .site = site };
	__u64 one = 1, *c, *used;

	/* Lengths past the buckets' range (a pointer read as a length) are not kept exactly. */
	if (len < CP_EXACT_LIMIT || len >= (1ULL << CP_MAX_LOG2))
		return;
	c = bpf_map_lookup_elem(&exacts, &k);
	if (!c) {
		used = bpf_map_lookup_elem(&exact_used, &site);
		if (used && *used < CP_EXACT_PER_SITE &&
		    __sync_fetch_and_add(used, 1) < CP_EXACT_PER_SITE &&
		    !bpf_map_update_elem(&exacts, &k, &one, BPF_NOEXIST))
			return;
		/* Entered by another CPU meanwhile (its insert first, or the last slot its). */
		c = bpf_map_lookup_elem(&exacts, &k);
	}
	if (c)
		__sync_fetch_and_add(c, 1);
}

/* The slots full: every other run dropped (0, 2s, ... kept, packed), the stride doubled. */
static __always_inline void order_thin(struct order_slot *o)
{
	__u32 k, j;

	for (j = 1; j < CP_ORDER_RUNS / 2; j++) {
		for (k = 0; k < CP_ORDER_LEN; k++)
			o->len[j][k] = o->len[2 * j][k];
		o->filled[j] = o->filled[2 * j];
	}
	for (j = CP_ORDER_RUNS / 2; j < CP_ORDER_RUNS; j++)
		o->filled[j] = 0;
	o->stride_log2++;
}

/* Call @nth of @site on this CPU (counted from 0), inside a run: its length stored in place. */
static __always_inline void record_order(__u32 site, __u64 nth, __u64 len)
{
	struct order_slot *o = bpf_map_lookup_elem(&orders, &site);
	__u64 run = nth / CP_ORDER_EVERY, slot;
	__u32 pos = (__u32)nth & (CP_ORDER_LEN - 1);

	if (!o || o->stride_log2 >= 48 || (run & ((1ULL << o->stride_log2) - 1)))
		return; /* not a run the slots keep */
	slot = run >> o->stride_log2;
	if (slot >= CP_ORDER_RUNS) {
		if (pos || slot != CP_ORDER_RUNS)
			return; /* thinned only as the run after the last slot begins */
		order_thin(o);
		slot = run >> o->stride_log2;
	}
	/* a mask the verifier can follow (CP_ORDER_RUNS is a power of two) */
	slot &= CP_ORDER_RUNS - 1;
	o->len[slot][pos] = len;
	o->filled[slot] = pos + 1;
}

/*
 * One call at @site to the current task's cgroup: its slot, a free one taken with a
 * compare-and-swap (a uprobe preempted on this CPU may be taking the same one), or other.
 */
static __always_inline void count_cgroup(__u32 site)
{
	struct cgroup_slots *t = bpf_map_lookup_elem(&cgroup_calls, &site);
	__u64 id = bpf_get_current_cgroup_id(), was;
	int i;

	if (!t)
		return;
#pragma unroll
	for (i = 0; i < CP_CGROUP_SLOTS; i++) {
		was = t->id[i];
		if (!was)
			was = __sync_val_compare_and_swap(&t->id[i], 0, id) ?: id;
		if (was == id) {
			__sync_fetch_and_add(&t->calls[i], 1);
			return;
		}
	}
	__sync_fetch_and_add(&t->other, 1);
}

/*
 * One call of @len bytes to the caller table @map (callers, ucallers) at @key, with atomic
 * adds; a full table counts the call in caller_misses instead of dropping it.
 */
static __always_inline void caller_add(void *map, const void *key, __u32 site, __u64 len)
{
	struct hist_slot zero = {}, *slot;
	__u64 *miss;

	slot = bpf_map_lookup_elem(map, key);
	if (!slot) {
		bpf_map_update_elem(map, key, &zero, BPF_NOEXIST);
		slot = bpf_map_lookup_elem(map, key);
	}
	if (slot) {
		__sync_fetch_and_add(&slot->count, 1);
		__sync_fetch_and_add(&slot->bytes, len);
		return;
	}
	miss = bpf_map_lookup_elem(&caller_misses, &site);
	if (miss)
		__sync_fetch_and_add(miss, 1);
}

/* At a function's first instruction the stack pointer points at the return address. */
static __always_inline void count_caller(__u32 site, __u32 bucket, __u64 len, __u64 sp)
{
	struct caller_key k = { .site = site, .bucket = bucket };

	if (bpf_probe_read_kernel(&k.ret_ip, sizeof(k.ret_ip), (void *)sp))
		k.ret_ip = 0;
	caller_add(&callers, &k, site, len);
}

/* The return address's file (device, inode) and offset in it, from the mapping that holds it. */
static long ucaller_vma(struct task_struct *task, struct vm_area_struct *vma, void *data)
{
	struct ucaller_key *k = data;
	struct file *file = BPF_CORE_READ(vma, vm_file);

	if (!file)
		return 0;
	k->ino = BPF_CORE_READ(file, f_inode, i_ino);
	k->dev = BPF_CORE_READ(file, f_inode, i_sb, s_dev);
	k->off = k->off - BPF_CORE_READ(vma, vm_start) + (BPF_CORE_READ(vma, vm_pgoff) << 12);
	return 0;
}

/*
 * At a user function's first instruction *sp is the return address, as in the kernel: read
 * from user memory, named by its mapping now, while the process runs. A user stack from the
 * stack map would not do: at the entry of a function without frame pointers (Debian's, most
 * -O2 code) the kernel's walk misses the immediate caller.
 */
static __always_inline void count_user_caller(__u32 site, __u32 bucket, __u64 len, __u64 sp)
{
	struct ucaller_key k = { .site = site, .bucket = bucket }, *known;
	struct task_struct *task = bpf_get_current_task_btf();
	struct ucaller_where w = {};
	__u64 ret = 0;

	if (!bpf_probe_read_user(&ret, sizeof(ret), (void *)sp) && ret) {
		w.ret = ret;
		w.mm = (__u64)task->mm;
		w.tgid = bpf_get_current_pid_tgid() >> 32;
		known = bpf_map_lookup_elem(&ucaller_cache, &w);
		if (known) {
			k.ino = known->ino;
			k.off = known->off;
			k.dev = known->dev;
		} else {
			k.off = ret;
			bpf_find_vma(task, ret, ucaller_vma, &k, 0);
			if (!k.ino)
				k.off = 0;
			else /* not one that failed: the next call may find the mapping */
				bpf_map_update_elem(&ucaller_cache, &w, &k, BPF_ANY);
		}
	}
	caller_add(&ucallers, &k, site, len);
}

static __always_inline int count_copy(void *ctx, struct pt_regs *regs, bool by_ip)
{
	__u32 site = (__u32)bpf_get_attach_cookie(ctx), *by;
	const struct site_cfg *cfg;
	struct hist_slot *slot;
	struct gprs g;
	__u64 len, ip, *calls, nth = 1;
	__u32 key;

	/*
	 * An instruction breakpoint is a fault: the registers are those before the
	 * instruction, so ip is the breakpoint's address whichever site the event has moved to.
	 */
	if (by_ip && site == CP_COOKIE_BY_IP) {
		ip = regs->ip;
		by = bpf_map_lookup_elem(&bp_sites, &ip);
		if (!by)
			return 0;
		site = *by;
	}
	if (site >= targ_nr_sites || !task_filter_match())
		return 0;
	cfg = bpf_map_lookup_elem(&sites, &site);
	if (!cfg)
		return 0;
	gprs_snap(regs, &g);
	len = gprs_get(&g, cfg->len_reg);
	key = site * CP_NBUCKETS + cp_bucket_of(len);
	/*
	 * Per-CPU slots keep CPUs apart; the atomic adds also keep two programs that
	 * interleave on one CPU (a preempted uprobe) from losing a count.
	 */
	slot = bpf_map_lookup_elem(&hists, &key);
	if (slot) {
		__sync_fetch_and_add(&slot->count, 1);
		__sync_fetch_and_add(&slot->bytes, len);
	}
	calls = bpf_map_lookup_elem(&site_calls, &site);
	if (calls) { /* the count before this call: footprint_sample() takes every 64th */
		nth = __sync_fetch_and_add(calls, 1);
		/* the one branch a call outside a sampled run pays */
		if ((nth & (CP_ORDER_EVERY - 1)) < CP_ORDER_LEN)
			record_order(site, nth, len);
	}
	count_align(site, gprs_get(&g, cfg->dst_reg), gprs_get(&g, cfg->src_reg), cfg);
	count_dist(key, gprs_get(&g, cfg->dst_reg), gprs_get(&g, cfg->src_reg), cfg);
	count_exact(site, len);
	if (cfg->dst_reg || cfg->src_reg)
		footprint_sample(site, nth, gprs_get(&g, cfg->dst_reg), gprs_get(&g, cfg->src_reg),
				 len);
	if (targ_cgroups)
		count_cgroup(site);
	if (targ_callers && cfg->caller_stack == CP_CALLER_KERNEL)
		count_caller(site, key - site * CP_NBUCKETS, len, gprs_get(&g, CP_REG_RSP));
	else if (targ_user_callers && cfg->caller_stack == CP_CALLER_USER)
		count_user_caller(site, key - site * CP_NBUCKETS, len, gprs_get(&g, CP_REG_RSP));
	return 0;
}

SEC("uprobe")
int cp_uprobe(struct pt_regs *ctx)
{
	return count_copy(ctx, ctx, false);
}

/*
 * The same as a uprobe_multi link (Linux 6.6+; hist_session.c sets the attach type, which
 * libbpf 1.1 has no section name for): attaching it needs no CAP_SYS_ADMIN.
 */
SEC("kprobe")
int cp_uprobe_multi(struct pt_regs *ctx)
{
	return count_copy(ctx, ctx, false);
}

SEC("kprobe")
int cp_kprobe(struct pt_regs *ctx)
{
	return count_copy(ctx, ctx, false);
}

/* Hardware breakpoints: the registers at the breakpointed instruction. */
SEC("perf_event")
int cp_perf(struct bpf_perf_event_data *ctx)
{
	return count_copy(ctx, (struct pt_regs *)&ctx->regs, true);
}

#include "copy_share.h"

char LICENSE[] SEC("license") = "GPL";
