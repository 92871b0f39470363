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

int cgroup_filter_set(int map_fd, uint32_t index, int cgroup_fd)
{
	__u32 v = (__u32)cgroup_fd;

	if (!bpf_map_update_elem(map_fd, &index, &v, 0))
		return 0;
	p_err("cannot set the --cgroup filter: %s", strerror(errno));
	return -errno;
}

int cgroup_set_open(const char *const *paths, uint32_t nr, struct cgroup_set *set)
{
	uint32_t i;
	int err;

	set->nr = 0;
	for (i = 0; i < CP_MAX_CGROUP_FILTERS; i++)
		set->v[i] = (struct cgroup_ref){ .fd = -1 };
	if (nr > CP_MAX_CGROUP_FILTERS) {
		p_err("%u --cgroup directories: at most %d filter one recording", nr,
		      CP_MAX_CGROUP_FILTERS);
		return -E2BIG;
	}
	for (i = 0; i < nr; i++) {
		err = cgroup_open(paths[i], &set->v[i]);
		if (err) {
			cgroup_set_close(set);
			return err;
		}
		set->nr = i + 1;
	}
	return 0;
}

int cgroup_set_filter(int map_fd, const struct cgroup_set *set)
{
	uint32_t i;
	int err;

	for (i = 0; i < set->nr; i++) {
		err = cgroup_filter_set(map_fd, i, set->v[i].fd);
		if (err)
			return err;
	}
	return 0;
}

char *cgroup_set_names(const struct cgroup_set *set)
{
	size_t len = 1;
	uint32_t i;
	char *s;

	for (i = 0; i < set->nr; i++)
		len += strlen(set->v[i].name) + 1;
	s = calloc(1, len);
	for (i = 0; s && i < set->nr; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, set->v[i].name);
	}
	return s;
}

void cgroup_set_close(struct cgroup_set *set)
{
	uint32_t i;

	for (i = 0; i < set->nr; i++)
		cgroup_close(&set->v[i]);
	set->nr = 0;
}
