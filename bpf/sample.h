/* SPDX-License-Identifier: GPL-2.0 */
/* sample.h: types shared by sample.bpf.c and user/sample_session.c (__u32-style only) */
#ifndef CP_SAMPLE_H
#define CP_SAMPLE_H

/* Address ranges user space hands to the sampler: copy-family functions and exclusions. */
#define SAMPLE_MAX_RANGES 1024
#define SAMPLE_RANGE_LEAF 1 /* a copy-family function: every sample in it counts */
#define SAMPLE_RANGE_SKIP 2 /* never copy family, even at a rep string instruction */

struct sample_range {
	__u64 start; /* inclusive */
	__u64 end;   /* exclusive */
	__u32 kind;  /* SAMPLE_RANGE_* */
	__u32 pad;
};

/*
 * A user function sampled instead of counted (the agent's budget, docs/fleet.md): samples
 * whose user-mode IP lies in [start, end) of the file (offsets, as a uprobe's) are counted in
 * func_counts at the function's index. ino 0: the slot is free.
 */
#define SAMPLE_MAX_FUNCS 16

struct sample_func {
	__u64 ino;   /* the file's inode number */
	__u64 start; /* file offset of the function, inclusive */
	__u64 end;   /* exclusive */
	__u32 dev;   /* the file system's device, the kernel's encoding (major << 20 | minor) */
	__u32 pad;
};

/* Per-CPU counters (the "counters" array), summed by user space at the end. */
enum sample_counter {
	SAMPLE_CNT_TOTAL,   /* samples of the wanted tasks, user and kernel mode alike */
	SAMPLE_CNT_IDLE,    /* of those, samples of the idle task (pid 0) */
	SAMPLE_CNT_COPY,    /* of those, samples whose leaf is copy family */
	SAMPLE_CNT_LOST,    /* copy samples whose record did not fit the ring buffer */
	SAMPLE_CNT_NOSTACK, /* copy samples whose stack could not be stored */
	SAMPLE_CNT_NR,
};

#define SAMPLE_LEAF_RANGE 1  /* IP inside a SAMPLE_RANGE_LEAF range */
#define SAMPLE_LEAF_INLINE 2 /* IP at a rep movs/stos instruction elsewhere in the kernel */

/*
 * Copy samples per (kernel stack, user stack, process): the safety net that keeps counts right
 * when records are lost, and keeps who took them (the comm of the first one's thread).
 */
struct sample_stack_key {
	__s32 kstack; /* stackmap id, or -1 */
	__s32 ustack; /* ustackmap id (record --user-stacks), or -1 */
	__u32 tgid;
	__u32 pad;
};

struct sample_stack_val {
	__u64 count;
	char comm[CP_COMM_LEN];
};

#define SAMPLE_INSN_BYTES 16
#define SAMPLE_NR_GPRS 16      /* rax rbx rcx rdx rsi rdi rbp rsp r8 .. r15: enum cp_reg order */
#define SAMPLE_STACK_DEPTH 127 /* PERF_MAX_STACK_DEPTH */

/* One copy-family sample, as it goes through the ring buffer. */
struct sample_rec {
	__u64 ip;
	__u64 gprs[SAMPLE_NR_GPRS];
	__s32 stackid;	/* stackmap id, or the negative error of bpf_get_stackid */
	__s32 ustackid; /* ustackmap id (with --user-stacks), or a negative error */
	__u32 tgid;
	__u32 pid;
	char comm[CP_COMM_LEN]; /* the thread's, as bpftrace's comm */
	__u8 leaf_kind;		/* SAMPLE_LEAF_* */
	__u8 new_task;		/* the first record of this tgid (--user-stacks): read its maps */
	__u8 insn[SAMPLE_INSN_BYTES]; /* the bytes at ip, for the length rules */
	__u8 pad[6];
};

#endif
