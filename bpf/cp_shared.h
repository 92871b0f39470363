/* SPDX-License-Identifier: GPL-2.0 */
/* cp_shared.h: types and the length bucketing shared by the BPF programs and user space */
#ifndef CP_SHARED_H
#define CP_SHARED_H

/*
 * Buckets: exact for every length below 64; from 64 up, 8 linear sub-buckets per power of
 * two, so every k * 2^m with 8 <= k <= 15 is an edge (256, 320, 1536, 2048 ...). The last
 * regular bucket ends at 2^40; one overflow bucket takes everything from 2^40 up.
 * This one function is the bucketing used everywhere: BPF, profiles, estimates.
 */
#define CP_EXACT_LIMIT 64
#define CP_SUB_BITS 3
#define CP_SUBS (1 << CP_SUB_BITS)
#define CP_MAX_LOG2 40
#define CP_NBUCKETS (CP_EXACT_LIMIT + (CP_MAX_LOG2 - 6) * CP_SUBS + 1)
#define CP_OVERFLOW_BUCKET (CP_NBUCKETS - 1)

#define CP_MAX_SITES 256
#define CP_ALIGN_SLOTS 64
#define CP_COMM_LEN 16
#define CP_MAX_CALLER_SLOTS 65536 /* (site, caller, bucket) triples of entry sites */
#define CP_MAX_FOLLOWED 16384	  /* descendants of a command alive at once (task_filter.h) */
/*
 * The attach cookie of a multiplexed hardware breakpoint: the event moves between sites, so
 * the program names the site from the instruction pointer (map bp_sites) instead.
 */
#define CP_COOKIE_BY_IP 0xffffffffU

/* Whose stack an entry site reads its caller's return address from. */
enum cp_caller_stack { CP_CALLER_NONE = 0, CP_CALLER_KERNEL = 1, CP_CALLER_USER = 2 };

/*
 * Where a value is read from at the probe: an argument or a named register. Arguments are
 * numbered from 0 as bpftrace numbers them: memcpy(dst, src, len) has its length in arg2.
 */
enum cp_reg {
	CP_REG_NONE = 0,
	CP_REG_ARG0, /* the first argument, as bpftrace numbers them (arg0 .. arg5) */
	CP_REG_ARG1,
	CP_REG_ARG2,
	CP_REG_ARG3,
	CP_REG_ARG4,
	CP_REG_ARG5,
	CP_REG_RAX,
	CP_REG_RBX,
	CP_REG_RCX,
	CP_REG_RDX,
	CP_REG_RSI,
	CP_REG_RDI,
	CP_REG_RBP,
	CP_REG_RSP,
	CP_REG_R8,
	CP_REG_R9,
	CP_REG_R10,
	CP_REG_R11,
	CP_REG_R12,
	CP_REG_R13,
	CP_REG_R14,
	CP_REG_R15,
	CP_REG_COUNT,
};

/* Per-site configuration, indexed by site id (the attach cookie). */
struct site_cfg {
	__u8 len_reg;
	__u8 dst_reg;
	__u8 src_reg;
	__u8 caller_stack; /* enum cp_caller_stack: at a function entry, who called */
	__u8 pad[4];
};

/* A caller histogram slot's key: the return address the entry site found on the stack. */
struct caller_key {
	__u64 ret_ip;
	__u32 site;
	__u32 bucket;
};

/*
 * A user caller's key (uprobe entry sites): the return address as the file that holds it
 * (device and inode, as bpf_find_vma sees them) and the offset in that file, so that it can be
 * named after the process is gone. ino 0: the stack or the mapping could not be read.
 */
struct ucaller_key {
	__u64 ino;
	__u64 off;
	__u32 dev; /* the kernel's encoding, major << 20 | minor */
	__u32 site;
	__u32 bucket;
	__u32 pad;
};

/*
 * Attribution by cgroup (docs/profile-format.md#cgroups): per site and per CPU, the first
 * CP_CGROUP_SLOTS cgroups (v2 ids: their directory's inode number) that call it each get a slot,
 * first come; the calls of any other cgroup on that CPU go to other. User space sums the CPUs,
 * keeps the CP_CGROUP_SLOTS cgroups with most calls and adds the rest to other.
 */
#define CP_CGROUP_SLOTS 8
struct cgroup_slots {
	__u64 id[CP_CGROUP_SLOTS]; /* 0: free */
	__u64 calls[CP_CGROUP_SLOTS];
	__u64 other;
};
/* At most this many --cgroup directories filter a recording (task_filter.h). */
#define CP_MAX_CGROUP_FILTERS 8

/* One histogram slot: calls and their summed length, so bytes are exact per bucket. */
struct hist_slot {
	__u64 count;
	__u64 bytes;
};

/*
 * The pointer distance (dst - src) mod CP_DIST_PERIOD, in the classes a copy's cost follows:
 * 0; dst 1..63 bytes ahead of src within a page's offsets (the short-distance window where
 * REP MOVSB and vector copies were measured 1.2-5x slower); dst 1..63 bytes behind (4K
 * aliasing of loads with earlier stores); everything else; of everything else, the nonzero
 * multiples of 64 apart (both sides at the same offset in their cache lines: 7-8% cheaper at
 * 512 B-32 KiB on Zen 3, docs/profile-format.md#distance). Counted per (site, bucket).
 * The class is computed from d alone: no lookup beyond the slot's.
 */
#define CP_DIST_PERIOD 4096
#define CP_DIST_WINDOW 64
enum cp_dist_class {
	CP_DIST_ZERO = 0,
	CP_DIST_AHEAD,	/* (dst - src) mod 4096 in 1 .. 63 */
	CP_DIST_BEHIND, /* ... in 4033 .. 4095 */
	CP_DIST_OTHER,
	CP_DIST_ALIGNED_64, /* ... a multiple of 64 in 64 .. 4032: mutually line-aligned */
	CP_NR_DIST,
};

/* One (site, bucket)'s calls by distance class. */
struct dist_slot {
	__u64 c[CP_NR_DIST];
};

static __inline __u32 cp_dist_class(__u64 dst, __u64 src)
{
	__u64 d = (dst - src) & (CP_DIST_PERIOD - 1);

	if (!d)
		return CP_DIST_ZERO;
	if (d < CP_DIST_WINDOW)
		return CP_DIST_AHEAD;
	if (d > CP_DIST_PERIOD - CP_DIST_WINDOW)
		return CP_DIST_BEHIND;
	if (!(d & (CP_DIST_WINDOW - 1)))
		return CP_DIST_ALIGNED_64;
	return CP_DIST_OTHER;
}

/*
 * Exact lengths: a site's calls per length from CP_EXACT_LIMIT, for the first
 * CP_EXACT_PER_SITE distinct lengths the site copies (a spike is among them: it is met early),
 * each counted exactly from its first call; the other lengths are in the buckets only.
 */
#define CP_EXACT_PER_SITE 64
struct exact_key {
	__u64 len;
	__u32 site;
	__u32 pad;
};

/*
 * Call order: sampled runs of a site's consecutive lengths. Counting a site's calls on each CPU
 * from 0, the calls CP_ORDER_EVERY * r .. CP_ORDER_EVERY * r + CP_ORDER_LEN - 1 are run r: the
 * lengths in the order the site took them there. CP_ORDER_RUNS slots keep runs spread over the
 * whole recording: runs r that are multiples of a stride 2^stride_log2, which doubles (every
 * other kept run dropped) whenever the slots are full. A call outside a run costs one branch.
 * All three are powers of two (masks, no division).
 */
#define CP_ORDER_EVERY 1024
#define CP_ORDER_LEN 64
#define CP_ORDER_RUNS 4
struct order_slot {
	__u64 len[CP_ORDER_RUNS][CP_ORDER_LEN];
	__u32 filled[CP_ORDER_RUNS]; /* lengths stored in each run */
	__u32 stride_log2;	     /* the slots hold runs 0, s, 2s, ... (s = 2^stride_log2) */
	__u32 pad;
};

/* Low six address bits of destination and source, counted per site. */
struct align_slot {
	__u64 dst;
	__u64 src;
};

static __inline __u32 cp_log2(__u64 v)
{
	__u32 r = 0, shift;

	shift = (v > 0xFFFFFFFFULL) << 5;
	v >>= shift;
	r |= shift;
	shift = (v > 0xFFFF) << 4;
	v >>= shift;
	r |= shift;
	shift = (v > 0xFF) << 3;
	v >>= shift;
	r |= shift;
	shift = (v > 0xF) << 2;
	v >>= shift;
	r |= shift;
	shift = (v > 0x3) << 1;
	v >>= shift;
	r |= shift;
	r |= (v >> 1);
	return r;
}

static __inline __u32 cp_bucket_of(__u64 len)
{
	__u32 m;

	if (len < CP_EXACT_LIMIT)
		return (__u32)len;
	m = cp_log2(len);
	if (m >= CP_MAX_LOG2)
		return CP_OVERFLOW_BUCKET;
	return CP_EXACT_LIMIT + (m - 6) * CP_SUBS +
	       (__u32)((len >> (m - CP_SUB_BITS)) & (CP_SUBS - 1));
}

/*
 * The copy-time share (copy_share.h): the traced tasks' CPU time sampled, each sample put where
 * it fell: inside a probed copy function (user mode, or the kernel serving a fault there), in
 * the uprobes' own traps (the kernel at a probe's int3, or the out-of-line single step), or
 * elsewhere (the program's own other work). Ranges are (inode, file offsets [lo, hi)).
 */
#define CP_SHARE_RANGES 8
enum cp_share_slot {
	CP_SHARE_COPY = 0,
	CP_SHARE_OWN,
	CP_SHARE_TRAP,
	CP_NR_SHARE,
};

struct share_range {
	__u64 ino;
	__u64 lo;
	__u64 hi;
};

#endif /* CP_SHARED_H */
