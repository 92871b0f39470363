/* SPDX-License-Identifier: GPL-2.0 */
/* cgroup_path.h: a cgroup v2 id (what bpf_get_current_cgroup_id gives) named by its path */
#ifndef CP_CGROUP_PATH_H
#define CP_CGROUP_PATH_H

#include <stdint.h>

/*
 * The path from the cgroup2 mount's root ("/system.slice/ssh.service") of the cgroup whose id
 * is @id (its directory's inode number), malloc'd; NULL when no cgroup has that id any more
 * (removed since it counted) or cgroup2 is not mounted. The answers are cached for the life
 * of the process: an id is never reused while its cgroup lives (ids only grow, 64 bits).
 */
char *cgroup_path_of_id(uint64_t id);

#endif
