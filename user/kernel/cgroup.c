// SPDX-License-Identifier: GPL-2.0
/* cgroup.c: --cgroup's directory: cgroup v2 or refused, its fd, and its name from the mount root */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "cgroup.h"
#include "lib/log.h"

static bool is_cgroup2(const char *path)
{
	struct statfs sfs;

	return !statfs(path, &sfs) && sfs.f_type == CGROUP2_SUPER_MAGIC;
}

/* @real's part below the highest folder above it that is still cgroup2: the mount's root. */
static char *name_from_root(const char *real)
{
	char *up = strdup(real), *root = NULL;
	const char *rest;

	while (up && is_cgroup2(up)) {
		free(root);
		root = strdup(up);
		if (!strcmp(up, "/"))
			break;
		strcpy(up, dirname(up));
	}
	free(up);
	if (!root)
		return strdup("/");
	rest = real + strlen(root);
	free(root);
	return strdup(*rest ? rest : "/");
}

int cgroup_open(const char *path, struct cgroup_ref *c)
{
	char real[PATH_MAX];
	struct stat st;
	int err;

	c->fd = -1;
	c->name = NULL;
	if (!realpath(path, real) || stat(real, &st)) {
		err = -errno;
		p_err("--cgroup %s: %s", path, strerror(-err));
		return err;
	}
	if (!S_ISDIR(st.st_mode) || !is_cgroup2(real)) {
		p_err("--cgroup %s: not a cgroup v2 directory (e.g. /sys/fs/cgroup/system.slice)",
		      path);
		return -EINVAL;
	}
	c->fd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	c->name = name_from_root(real);
	if (c->fd < 0 || !c->name) {
		err = c->fd < 0 ? -errno : -ENOMEM;
		p_err("--cgroup %s: %s", path, strerror(-err));
		cgroup_close(c);
		return err;
	}
	return 0;
}

void cgroup_close(struct cgroup_ref *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->name);
	c->fd = -1;
	c->name = NULL;
}

int cgroup_filter_set(int map_fd, int cgroup_fd)
{
	__u32 k = 0, v = (__u32)cgroup_fd;

	if (!bpf_map_update_elem(map_fd, &k, &v, 0))
		return 0;
	p_err("cannot set the --cgroup filter: %s", strerror(errno));
	return -errno;
}
