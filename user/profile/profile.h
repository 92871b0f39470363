/* SPDX-License-Identifier: GPL-2.0 */
/* profile.h: the copyprof profile (docs/profile-format.md): in memory, JSON out and in */
#ifndef CP_PROFILE_H
#define CP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "lib/hist.h"
#include "lib/sparse_hist.h"
#include "lib/host.h"
#include "kernel/srcline.h"
#include "sites/copy_family.h"
#include "profile_align.h"
#include "profile_cgroup.h"
#include "profile_dist.h"
#include "profile_footprint.h"
#include "profile_exact.h"
#include "profile_order.h"
#include "profile_dispatch.h"
#include "profile_glibc.h"
#include "profile_sample.h"

struct site_mux; /* profile_mux.h */

#define PROFILE_FORMAT "copyprof-profile"
#define PROFILE_VERSION 1
/*
 * What profile_read() accepts (docs/profile-format.md#limits): the sites cost memory in
 * proportion (about 0.5 KB each, their buckets sparse; the file is read site by site), so the
 * file and the number of sites are bounded.
 */
#define PROFILE_MAX_BYTES (256ULL << 20)
#define PROFILE_MAX_SITES 250000

/*
 * Who called an entry site (a kernel function probed at its first instruction), found from the
 * return address on the stack: its own length histogram (docs/profile-format.md#callers).
 */
struct profile_caller {
	char *target;	  /* "vmlinux" or a module; NULL until symbolised */
	char *symbol;	  /* the calling function; NULL until symbolised, "[unknown]" if none */
	uint64_t offset;  /* of the return address in symbol */
	uint64_t address; /* the return address when recorded; 0 after a merge */
	uint64_t calls;
	uint64_t bytes;
	struct sparse_hist buckets;
};

struct profile_site {
	uint32_t id;
	char *target; /* binary path, "vmlinux" or a module name */
	char *symbol;
	uint64_t offset;
	char *mechanism;	 /* uprobe | kprobe | hwbp | sample */
	char *len_arg;		 /* arg2, rcx, ... */
	enum copy_family family; /* what its copies are; CF_NONE until a writer says */
	uint64_t calls;
	uint64_t bytes;
	struct sparse_hist buckets; /* the non-empty ones (sparse_hist.h) */
	struct site_align align;    /* dst_align/src_align, if recorded (profile_align.h) */
	struct site_dist dist;	    /* distance classes per bucket, if recorded (profile_dist.h) */
	struct site_exact exact;    /* calls at exact lengths, if recorded (profile_exact.h) */
	struct site_footprint footprint; /* bytes touched per window, if recorded */
	struct site_cgroups cgroups;	 /* calls by cgroup, if recorded (profile_cgroup.h) */
	struct site_order order;	 /* sampled runs of consecutive lengths (profile_order.h) */
	uint32_t group; /* index into profile.groups (0 when the profile has none) */
	struct sample_site_info *sample; /* mechanism "sample" only (profile_sample.h) */
	struct site_mux *mux; /* multiplexed breakpoints only: counts are scaled (profile_mux.h) */
	struct source_pos *source; /* NULL when there was no DWARF */
	char *label;	  /* a stage name from a preset's label rule (zdss_flush ...), or NULL */
	char *build_id;	  /* kernel sites: the build id of vmlinux or the module, or NULL */
	uint64_t address; /* kernel sites: the instruction's address when recorded, or 0 */
	struct profile_caller *callers; /* entry sites: most calls first */
	size_t nr_callers;
	uint64_t caller_misses; /* calls not given a caller: the kernel's caller table was full */
};

/*
 * A merged profile's group (docs/profile-format.md#groups): the profiles of one kernel and one
 * CPU (model and flags), which are summed; different kernels or CPUs are never mixed.
 */
struct profile_group {
	char *kernel;
	char *cpu_model;
	char **cpu_flags;
	size_t nr_cpu_flags;
	bool cpu_flags_unknown; /* "cpu_flags": null, as host_meta's (import-perf's elsewhere) */
	char **hosts;		/* sorted, no duplicates */
	size_t nr_hosts;
	uint64_t profiles;	/* how many recordings were summed */
	double duration_s;	/* summed over them */
	uint32_t sample_hz;	/* sampled recordings: their rate (part of the group's key) */
	uint64_t total_samples; /* ... and every sample they took, summed; 0 if not sampled */
	uint64_t idle_samples;
};

struct profile {
	struct host_meta meta;
	struct sample_meta *sample;	   /* sampled recordings only (profile_sample.h) */
	struct profile_dispatch *dispatch; /* meta.dispatch: kernel recordings; NULL if absent */
	struct profile_glibc *glibc; /* meta.glibc: a uprobe on glibc's code; NULL if absent */
	struct profile_site *sites;
	size_t nr_sites;
	size_t cap_sites; /* allocated slots of sites (profile_add_site() doubles them) */
	struct profile_group *groups; /* empty unless merged */
	size_t nr_groups;
};

struct profile *profile_new(void);
void profile_free(struct profile *p);
/* Appends a zeroed site with the next id and family CF_NONE; NULL on allocation failure. */
struct profile_site *profile_add_site(struct profile *p);
/* Appends a zeroed group; NULL on allocation failure. */
struct profile_group *profile_add_group(struct profile *p);
/* Appends a zeroed caller to @s; NULL on allocation failure. */
struct profile_caller *profile_site_add_caller(struct profile_site *s);
/*
 * What no caller of @s took (caller_misses), per bucket: the site's buckets less its callers'.
 * Fills @rest (CP_NBUCKETS slots) and returns how many calls that is.
 */
uint64_t profile_site_no_caller(const struct profile_site *s, struct hist_slot *rest);
/* Sorts @s's callers by calls, most first (then by name and offset: reproducible output). */
void profile_site_sort_callers(struct profile_site *s);
/* Frees what @s holds and zeroes it (the site array stays the profile's). */
void profile_site_clear(struct profile_site *s);
/* Recomputes calls and bytes from the buckets. */
void profile_site_sum(struct profile_site *s);

json_object *profile_to_json(const struct profile *p);
/* Writes the profile atomically; "-" is stdout. Returns 0 or -errno (printed). */
int profile_write(const struct profile *p, const char *path);
/*
 * The same text to @f, as it is made (one site in memory at a time). 0, or -ENOMEM or -EPROTO;
 * a failed write leaves @f in error, for its owner to say.
 */
int profile_write_stream(const struct profile *p, FILE *f);
/* profile_write(), then says on stderr where the profile went (not for stdout). */
int profile_save(const struct profile *p, const char *path);
/* Reads and validates a profile; prints why it is refused. Returns 0 or -errno/-EINVAL. */
int profile_read(const char *path, struct profile **out);
int profile_from_json(json_object *root, const char *name, struct profile **out);

#endif
