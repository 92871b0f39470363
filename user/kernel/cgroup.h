/* SPDX-License-Identifier: GPL-2.0 */
/* cgroup.h: a cgroup v2 directory for the task filter: checked, opened, named from its root */
#ifndef CP_CGROUP_H
#define CP_CGROUP_H

#include <stdint.h>
#include "lib/hist.h" /* cp_shared.h: CP_MAX_CGROUP_FILTERS */

/* A cgroup --cgroup named. */
struct cgroup_ref {
	int fd;	    /* the directory, O_RDONLY: what BPF's cgroup array holds; -1: none */
	char *name; /* its path from the cgroup2 mount's root: "/system.slice/ssh.service" */
};

/*
 * Opens @path, which must be a cgroup v2 directory (such as /sys/fs/cgroup/system.slice); a
 * task in it or in any cgroup below it passes the filter. Prints why and returns -errno.
 */
int cgroup_open(const char *path, struct cgroup_ref *c);
void cgroup_close(struct cgroup_ref *c);
/*
 * Puts @cgroup_fd into slot @index of a BPF program's cgroup array @map_fd (task_filter.h).
 * 0 or -errno, said.
 */
int cgroup_filter_set(int map_fd, uint32_t index, int cgroup_fd);

/* The --cgroup directories of one recording (repeatable): a task in any of them passes. */
struct cgroup_set {
	struct cgroup_ref v[CP_MAX_CGROUP_FILTERS];
	uint32_t nr;
};

/* Opens each of @paths (cgroup_open); more than CP_MAX_CGROUP_FILTERS are refused. -errno, said. */
int cgroup_set_open(const char *const *paths, uint32_t nr, struct cgroup_set *set);
/* Puts every directory of @set into the cgroup array @map_fd. 0 or -errno, said. */
int cgroup_set_filter(int map_fd, const struct cgroup_set *set);
/* The names of @set's directories joined by ',', malloc'd; NULL without memory. */
char *cgroup_set_names(const struct cgroup_set *set);
/* Closes the @set->nr directories opened (a zeroed set is fine). */
void cgroup_set_close(struct cgroup_set *set);

#endif
