// SPDX-License-Identifier: GPL-2.0
/* cgroup_path.c: a cgroup v2 id named by its path: by file handle, else by a walk of the tree */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <mntent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgroup_path.h"
#include "lib/log.h"

/* Answers kept, found or not: a scrape names the same few cgroups again and again. */
#define CGROUP_PATH_CACHE 256

struct named_id {
	uint64_t id;
	char *path; /* NULL: no cgroup had that id */
};

static struct named_id cache[CGROUP_PATH_CACHE];
static unsigned int cache_next;
static char mount_dir[PATH_MAX];

/* Where cgroup2 is mounted (/sys/fs/cgroup here), from /proc/self/mounts; false if nowhere. */
static bool find_mount(void)
{
	struct mntent *m;
	FILE *f;

	if (mount_dir[0])
		return true;
	f = setmntent("/proc/self/mounts", "r");
	if (!f)
		return false;
	while ((m = getmntent(f)))
		if (!strcmp(m->mnt_type, "cgroup2")) {
			snprintf(mount_dir, sizeof(mount_dir), "%s", m->mnt_dir);
			break;
		}
	endmntent(f);
	return mount_dir[0] != 0;
}

/* @abs (under mount_dir) as a path from the mount's root. */
static char *from_root(const char *abs)
{
	const char *rest = abs + strlen(mount_dir);

	if (strncmp(abs, mount_dir, strlen(mount_dir)) || (*rest && *rest != '/'))
		return NULL;
	return strdup(*rest ? rest : "/");
}

/*
 * kernfs takes the cgroup id as a file handle (8 bytes, the type name_to_handle_at gives the
 * mount's root): the directory opened, /proc/self/fd names it. Needs CAP_DAC_READ_SEARCH.
 */
static char *by_handle(uint64_t id)
{
	union {
		struct file_handle fh;
		char room[sizeof(struct file_handle) + sizeof(uint64_t)];
	} h = { .fh.handle_bytes = sizeof(uint64_t) };
	char link[64], abs[PATH_MAX];
	int mount_fd, mount_id, fd;
	ssize_t n;

	mount_fd = open(mount_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mount_fd < 0)
		return NULL;
	if (name_to_handle_at(mount_fd, "", &h.fh, &mount_id, AT_EMPTY_PATH)) {
		close(mount_fd);
		return NULL;
	}
	h.fh.handle_bytes = sizeof(id);
	memcpy(h.fh.f_handle, &id, sizeof(id));
	fd = open_by_handle_at(mount_fd, &h.fh, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(mount_fd);
	if (fd < 0)
		return NULL;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, abs, sizeof(abs) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	abs[n] = 0;
	return from_root(abs);
}

static uint64_t walk_id;
static char *walk_found;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_D || (uint64_t)st->st_ino != walk_id)
		return 0;
	walk_found = from_root(path);
	return 1;
}

/* Without the capability: every directory of the tree, its inode number against @id. */
static char *by_walk(uint64_t id)
{
	walk_id = id;
	walk_found = NULL;
	nftw(mount_dir, walk_one, 16, FTW_PHYS | FTW_MOUNT);
	return walk_found;
}

char *cgroup_path_of_id(uint64_t id)
{
	struct named_id *slot;
	unsigned int i;
	char *path;

	for (i = 0; i < CGROUP_PATH_CACHE; i++)
		if (cache[i].id == id && id)
			return cache[i].path ? strdup(cache[i].path) : NULL;
	if (!id || !find_mount())
		return NULL;
	path = by_handle(id);
	if (!path)
		path = by_walk(id);
	if (!path)
		p_debug("cgroup id %llu: no cgroup has it now", (unsigned long long)id);
	slot = &cache[cache_next++ % CGROUP_PATH_CACHE];
	free(slot->path);
	*slot = (struct named_id){ .id = id, .path = path };
	return path ? strdup(path) : NULL;
}
