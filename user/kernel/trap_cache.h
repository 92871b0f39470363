/* SPDX-License-Identifier: GPL-2.0 */
/* trap_cache.h: probe trap costs kept per boot and kernel in a small file, so one measure serves */
#ifndef CP_TRAP_CACHE_H
#define CP_TRAP_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the cache is unless COPYPROF_TRAP_COST_CACHE names another file ("" turns it off). */
#define TRAP_CACHE_DEFAULT "/run/copyprof/trap-cost.json"
#define TRAP_CACHE_ENV "COPYPROF_TRAP_COST_CACHE"
#define TRAP_CACHE_MAX_BYTES 65536
#define TRAP_CACHE_MAX_ENTRIES 8
/* A cost per hit beyond this (1 ms) is no measurement of a trap: the file is refused. */
#define TRAP_CACHE_MAX_NS 1e6

/*
 * Everything that changes what a trap costs: the boot (/proc/sys/kernel/random/boot_id: a new
 * boot may bring a new kernel command line, new microcode, another host), the kernel's release
 * and build, the CPU (identity and microcode: a VM can be live-migrated within one boot), the
 * CPU vulnerabilities' mitigation states (a digest of /sys/devices/system/cpu/vulnerabilities),
 * and the measuring method (its version and the BPF program's digest, given by the caller).
 * A cache written under another key is stale and ignored.
 */
struct trap_cache_key {
	char boot_id[48];
	char kernel[256];
	char cpu[192];
	char mitigations[24];
	char method[64];
};

/* One mechanism's cost per hit, as measured. */
struct trap_cache_entry {
	char mech[16];	   /* "uprobe", "kprobe", "hwbp" */
	double hit_ns;	   /* the trap, the BPF run left out when bpf_counted */
	double bpf_ns;	   /* the BPF program's run per hit; 0 unless bpf_counted */
	bool bpf_counted;  /* BPF statistics were on: the two are apart */
	uint64_t measured; /* when, seconds since the epoch */
};

struct trap_cache {
	struct trap_cache_entry v[TRAP_CACHE_MAX_ENTRIES];
	size_t nr;
};

/* The cache file to use, or NULL when COPYPROF_TRAP_COST_CACHE is set empty. */
const char *trap_cache_path(void);
/* This boot's, kernel's and CPU's key, with @method. 0, or -errno when the boot id is unknown. */
int trap_cache_key_here(const char *method, struct trap_cache_key *k);
/*
 * Parses the cache at @path (any file: the fuzz target's entry point) into @c for key @k:
 * 0; -ESTALE when it was written under another key; -EINVAL when it is not a cache (@why says
 * what is wrong); -errno when it cannot be read. @c is empty unless 0 is returned.
 */
int trap_cache_parse(const char *path, const struct trap_cache_key *k, struct trap_cache *c,
		     char *why, size_t whylen);
/*
 * trap_cache_parse() of the cache at @path, only if it is a regular file of this user's that
 * no one else can write, at most TRAP_CACHE_MAX_BYTES (else -EPERM or -EFBIG, @why says).
 * -ENOENT when there is none.
 */
int trap_cache_load(const char *path, const struct trap_cache_key *k, struct trap_cache *c,
		    char *why, size_t whylen);
/*
 * Writes @c under @k to @path whole or not at all: a temp file in its folder, fsync'd and
 * renamed. The folder is made (0755) if missing and must be a real folder of this user's that
 * no one else can write; @path must be absent or a regular file of this user's (a symlink,
 * device or FIFO there is never replaced). 0, or -errno with @why.
 */
int trap_cache_store(const char *path, const struct trap_cache_key *k, const struct trap_cache *c,
		     char *why, size_t whylen);
/* @mech's entry in @c, or NULL. */
const struct trap_cache_entry *trap_cache_find(const struct trap_cache *c, const char *mech);
/* Adds @e to @c, replacing the entry of its mechanism. -ENOSPC when full. */
int trap_cache_put(struct trap_cache *c, const struct trap_cache_entry *e);

#endif
