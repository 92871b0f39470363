/* SPDX-License-Identifier: GPL-2.0 */
/* cgroup.h: a cgroup v2 directory for the task filter: checked, opened, named from its root */
#ifndef CP_CGROUP_H
#define CP_CGROUP_H

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
/* Puts @cgroup_fd into a BPF program's cgroup array @map_fd (task_filter.h). 0 or -errno, said. */
int cgroup_filter_set(int map_fd, int cgroup_fd);

#endif
