// SPDX-License-Identifier: GPL-2.0
/* outfile_lock.c: one writer at a time for an output file (see outfile_lock.h) */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "log.h"
#include "outfile_lock.h"

struct outfile_lock {
	char *lock_path;
	int fd;
};

/* The lock file's name beside @target: ".NAME.lock", or ".copyprof.lock" for a long NAME. */
static char *lock_name(const char *target)
{
	const char *slash = strrchr(target, '/'), *base = slash ? slash + 1 : target;
	int dir = (int)(base - target);
	char *p;

	if (strlen(base) + sizeof("..lock") - 1 <= NAME_MAX) {
		if (asprintf(&p, "%.*s.%s.lock", dir, target, base) < 0)
			return NULL;
	} else if (asprintf(&p, "%.*s.copyprof.lock", dir, target) < 0) {
		return NULL;
	}
	return p;
}

/* The pid the holder wrote into the lock file, or 0 if none can be read yet. */
static long holder_pid(int fd)
{
	char buf[24] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	return n > 0 ? strtol(buf, NULL, 10) : 0;
}

/* The file @path names, if it is one outfile.c replaces (or makes); NULL otherwise. */
static char *replaced_target(const char *path)
{
	struct stat st, lst;

	if (!strcmp(path, "-"))
		return NULL;
	if (stat(path, &st))
		/* A new file, unless a dangling symlink (outfile.c refuses it). */
		return errno == ENOENT && lstat(path, &lst) ? strdup(path) : NULL;
	if (!S_ISREG(st.st_mode))
		return NULL; /* written in place, or refused by outfile.c */
	if (!lstat(path, &lst) && S_ISLNK(lst.st_mode))
		return realpath(path, NULL);
	return strdup(path);
}

int outfile_lock(const char *path, const char *what, struct outfile_lock **lk)
{
	char *target, *name = NULL;
	struct stat held, now;
	int err, fd = -1, tries;

	*lk = NULL;
	target = replaced_target(path);
	if (!target)
		return 0;
	name = lock_name(target);
	free(target);
	if (!name)
		return -ENOMEM;
	/* A lock file removed by its holder between our open and our flock: open it again. */
	for (tries = 0; tries < 100; tries++) {
		fd = open(name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			/* No file can be made there: the writer's own check says why (outfile.c). */
			p_debug("%s: no lock file %s: %s", what, name, strerror(errno));
			free(name);
			return 0;
		}
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			err = -errno;
			if (err == -EWOULDBLOCK) {
				long pid = holder_pid(fd);

				if (pid > 0)
					p_err("%s: %s is being written by another copyprof "
					      "(process "
					      "%ld, lock file %s): refusing, so that neither "
					      "result "
					      "is lost; run one after the other",
					      what, path, pid, name);
				else
					p_err("%s: %s is being written by another copyprof (lock "
					      "file %s): refusing, so that neither result is lost; "
					      "run one after the other",
					      what, path, name);
				err = -EBUSY;
			} else {
				p_err("%s: cannot lock %s: %s", what, name, strerror(-err));
			}
			close(fd);
			free(name);
			return err;
		}
		if (!fstat(fd, &held) && !stat(name, &now) && held.st_dev == now.st_dev &&
		    held.st_ino == now.st_ino)
			break;
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		p_err("%s: cannot lock %s: it keeps being replaced", what, name);
		free(name);
		return -EAGAIN;
	}
	*lk = malloc(sizeof(**lk));
	if (!*lk) {
		unlink(name);
		close(fd);
		free(name);
		return -ENOMEM;
	}
	if (ftruncate(fd, 0) == 0)
		dprintf(fd, "%ld\n", (long)getpid());
	(*lk)->lock_path = name;
	(*lk)->fd = fd;
	return 0;
}

void outfile_unlock(struct outfile_lock *lk)
{
	if (!lk)
		return;
	/* Removed while held: whoever opened it meanwhile sees it gone and makes a new one. */
	unlink(lk->lock_path);
	close(lk->fd);
	free(lk->lock_path);
	free(lk);
}
