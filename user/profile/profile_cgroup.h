/* SPDX-License-Identifier: GPL-2.0 */
/* profile_cgroup.h: a site's calls by cgroup (the top few, the rest as other) */
#ifndef CP_PROFILE_CGROUP_H
#define CP_PROFILE_CGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>

/* One cgroup's calls at a site. */
struct cgroup_count {
	uint64_t id; /* cgroup v2 id on the recording host (its directory's inode number) */
	char *path;  /* from the cgroup2 root; NULL: the cgroup was gone when the site was read */
	uint64_t calls;
};

/*
 * The "cgroups" list of docs/profile-format.md#cgroups: at most CP_CGROUP_SLOTS cgroups, most
 * calls first, and @other: the calls of every other cgroup. @recorded: the recorder attributed
 * calls to cgroups (a profile without the list did not).
 */
struct site_cgroups {
	struct cgroup_count *v;
	uint32_t nr;
	uint64_t other;
	bool recorded;
};

/*
 * Adds @calls to the cgroup @id (@path, copied, may be NULL); a cgroup already listed with the
 * same path (both named) or else the same id takes them. Marks @c recorded. 0 or -ENOMEM.
 */
int site_cgroups_add(struct site_cgroups *c, uint64_t id, const char *path, uint64_t calls);
/* Sorts by calls, most first (then path, then id), and moves all past the first @k to other. */
int site_cgroups_keep_top(struct site_cgroups *c, uint32_t k);
/* @c += @a (merge), then the top CP_CGROUP_SLOTS kept. 0 or -ENOMEM. */
int site_cgroups_sum(struct site_cgroups *c, const struct site_cgroups *a);
void site_cgroups_clear(struct site_cgroups *c);
void site_cgroups_free(struct site_cgroups *c);
/*
 * The list as JSON: {"id", "path", "calls"} and, for a path in the kubelet's layout
 * (kube_cgroup.h), "pod_uid", "qos" and "container_id"; other last, as {"other": true, "calls"}.
 */
json_object *site_cgroups_to_json(const struct site_cgroups *c);
/* @a's rows into @c (recorded); @a NULL leaves @c not recorded. 0, -EINVAL (said), -ENOMEM. */
int site_cgroups_from_json(json_object *a, struct site_cgroups *c, const char *name, uint32_t site);

#endif
