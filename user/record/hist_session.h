/* SPDX-License-Identifier: GPL-2.0 */
/* hist_session.h: the life of hist.bpf.c: open, filter, load, attach sites, collect, destroy */
#ifndef CP_HIST_SESSION_H
#define CP_HIST_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include "profile/profile.h"

struct bpf_link;
struct cgroup_set;

struct hist_session;

struct hist_filter {
	uint32_t tgid;	  /* 0: every process */
	const char *comm; /* NULL: every command name */
	bool inherit;	  /* with @tgid: and the processes it starts, theirs too (task_follow.h) */
	/* cgroup v2 directories (kernel/cgroup.h): their tasks and below; NULL or none: any */
	const struct cgroup_set *cgroups;
	bool by_cgroup;	 /* attribute each site's calls to the caller's cgroup (cgroup_calls) */
	bool copy_share; /* load the copy-time share sampler (hist_session_share_start()) */
};

/* Which entry sites will count their callers (hist_session_open()'s @callers). */
#define HIST_CALLERS_KERNEL 1u /* kprobe and breakpoint entry sites */
#define HIST_CALLERS_USER 2u   /* uprobe entry sites */

/*
 * Opens and loads the program for @nr_sites sites; @callers (HIST_CALLERS_*): the kinds of
 * site that will count their callers (hist_session_config_site): kernel ones need BPF to read
 * kernel stacks, user ones (uprobe entry sites) user memory and bpf_find_vma (5.17+); the
 * tables of a kind not asked for take no memory. Prints the reason and returns NULL.
 */
struct hist_session *hist_session_open(const struct hist_filter *filter, uint32_t nr_sites,
				       unsigned int callers);
/*
 * Sets where site @id reads its length, destination and source (enum cp_reg), and whether it
 * counts per caller (@caller_stack, enum cp_caller_stack: only at a kernel function's entry).
 */
int hist_session_config_site(struct hist_session *hs, uint32_t id, int len_reg, int dst_reg,
			     int src_reg, int caller_stack);
/*
 * Attaches site @id as a uprobe on @path at @file_offset; prints why on failure. The file is
 * opened first and attached through its descriptor, so @attached (may be NULL) describes the
 * very file attached, even when @path is replaced meanwhile (uprobe_redeploy.h).
 */
int hist_session_attach_uprobe(struct hist_session *hs, uint32_t id, const char *path,
			       uint64_t file_offset, struct stat *attached);
/* A site's uprobe taken out of the session, still attached (uprobe_redeploy.h keeps it). */
struct hist_uprobe {
	struct bpf_link *link; /* a perf-event uprobe, or NULL */
	int multi_fd;	       /* a uprobe_multi link, or -1 */
};
/* Takes site @id's uprobe out of the session, still counting: the site can be attached anew. */
struct hist_uprobe hist_session_take_uprobe(struct hist_session *hs, uint32_t id);
/* Gives a taken uprobe back to site @id, whose own must be detached (a failed re-attach). */
void hist_session_give_uprobe(struct hist_session *hs, uint32_t id, struct hist_uprobe u);
/* Detaches a taken uprobe. */
void hist_uprobe_detach(struct hist_uprobe *u);
/* Attaches site @id as a kprobe at @func+@offset ("module:func" is fine); prints why on failure. */
int hist_session_attach_kprobe(struct hist_session *hs, uint32_t id, const char *func,
			       uint64_t offset);
/*
 * Attaches site @id as a hardware execution breakpoint at kernel address @addr on every CPU.
 * Returns -ENOSPC when a CPU has no debug register left (x86 has four).
 */
int hist_session_attach_hwbp(struct hist_session *hs, uint32_t id, uint64_t addr);
/*
 * Opens a hardware execution breakpoint event at kernel address @addr on @cpu, not yet
 * attached: a file descriptor or -1 with errno set. hist_session_bp_reason(-errno) explains.
 */
int hist_session_open_bp(uint64_t addr, int cpu);
const char *hist_session_bp_reason(int err);
int hist_session_nr_cpus(const struct hist_session *hs);
/* Multiplexed breakpoints: a hit at @addr counts for site @id. */
int hist_session_bp_site(struct hist_session *hs, uint64_t addr, uint32_t id);
/* Attaches the program to breakpoint event @fd, naming sites by address; NULL and errno. */
struct bpf_link *hist_session_attach_bp_fd(struct hist_session *hs, int fd);
/*
 * Adds the kernel-side counts of site @id into @site's buckets and alignment; with
 * hist_filter.by_cgroup, sets its calls by cgroup (profile_cgroup.h: the top CP_CGROUP_SLOTS
 * by calls, named from their ids, the rest as other).
 */
int hist_session_collect(struct hist_session *hs, uint32_t id, struct profile_site *site);
/*
 * Site @id's calls counted so far on each CPU, into @per_cpu (hist_session_nr_cpus() values),
 * with one map lookup: 0 or -errno, not said.
 */
int hist_session_site_calls(struct hist_session *hs, uint32_t id, uint64_t *per_cpu);
/*
 * Adds the per-caller counts of entry sites (configured with a caller stack) to @sites[id], for
 * ids below @nr, as callers with an address and no name yet (site_callers.h names them), and
 * their misses. One walk of the kernel's table serves every site.
 */
int hist_session_collect_callers(struct hist_session *hs, struct profile_site *sites, uint32_t nr);
/*
 * Calls @fn for every (site below @nr, caller file and offset, bucket) that uprobe entry sites
 * counted (configured with CP_CALLER_USER), with its calls and bytes; stops at @fn's first
 * error and returns it. Misses are in hist_session_collect_callers()'s.
 */
int hist_session_user_callers(struct hist_session *hs, uint32_t nr,
			      int (*fn)(void *ctx, const struct ucaller_key *k,
					const struct hist_slot *slot),
			      void *ctx);
/* Detaches site @id's probes (its counts stay readable); a site not attached is fine. */
void hist_session_detach(struct hist_session *hs, uint32_t id);
/*
 * The run time and runs of the session's BPF programs since load, summed; the kernel counts
 * them only while BPF statistics are on (BPF_ENABLE_STATS, kernel.bpf_stats_enabled).
 */
int hist_session_run_stats(struct hist_session *hs, uint64_t *run_time_ns, uint64_t *run_cnt);
/* A digest (FNV-1a) of the BPF object every session loads: what a stored BPF figure was made on. */
uint64_t hist_session_object_digest(void);
/* Detaches every probe and frees the session; NULL is fine. */
/*
 * The copy-time share (bpf/copy_share.h): range @i (< CP_SHARE_RANGES) is the copy function
 * at file offsets [@lo, @hi) of the file with inode @ino; then the filter's tasks are sampled
 * at @hz on every CPU (cpu-clock) until the session is destroyed, and read() sums the samples
 * by enum cp_share_slot. Needs filter->copy_share at open.
 */
bool hist_session_share_loaded(const struct hist_session *hs); /* not under lockdown */
int hist_session_share_range(struct hist_session *hs, uint32_t i, uint64_t ino, uint64_t lo,
			     uint64_t hi);
int hist_session_share_start(struct hist_session *hs, unsigned int hz);
int hist_session_share_read(struct hist_session *hs, uint64_t counts[CP_NR_SHARE]);
void hist_session_destroy(struct hist_session *hs);

#endif
