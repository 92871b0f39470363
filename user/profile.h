/* SPDX-License-Identifier: GPL-2.0 */
/* profile.h: the copyprof profile (docs/profile-format.md): in memory, JSON out and in */
#ifndef CP_PROFILE_H
#define CP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "hist.h"

#define PROFILE_FORMAT "copyprof-profile"
#define PROFILE_VERSION 1

struct profile_meta {
	char *tool_version;
	char *kernel;
	char *cpu_model;
	char *hostname;
	char *start;	/* ISO 8601, UTC */
	char *command;	/* the command line recorded, if any */
	char **cpu_flags;
	size_t nr_cpu_flags;
	double duration_s;
};

struct profile_site {
	uint32_t id;
	char *target;	 /* binary path, "vmlinux" or a module name */
	char *symbol;
	uint64_t offset;
	char *mechanism; /* uprobe | kprobe | hwbp | sample */
	char *len_arg;	 /* arg3, rcx, ... */
	uint64_t calls;
	uint64_t bytes;
	struct hist_slot buckets[CP_NBUCKETS];
	bool has_align;
	uint64_t dst_align[CP_ALIGN_SLOTS];
	uint64_t src_align[CP_ALIGN_SLOTS];
};

struct profile {
	struct profile_meta meta;
	struct profile_site *sites;
	size_t nr_sites;
};

struct profile *profile_new(void);
void profile_free(struct profile *p);
/* Appends a zeroed site with the next id; NULL on allocation failure. */
struct profile_site *profile_add_site(struct profile *p);
/* Recomputes calls and bytes from the buckets. */
void profile_site_sum(struct profile_site *s);

json_object *profile_to_json(const struct profile *p);
/* Writes the profile atomically; "-" is stdout. Returns 0 or -errno (printed). */
int profile_write(const struct profile *p, const char *path);
/* Reads and validates a profile; prints why it is refused. Returns 0 or -errno/-EINVAL. */
int profile_read(const char *path, struct profile **out);
int profile_from_json(json_object *root, const char *name, struct profile **out);

#endif
