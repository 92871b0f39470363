// SPDX-License-Identifier: GPL-2.0
/*
 * outfile.c: where -o writes: a regular file is replaced whole (temp file, fsync, rename), a
 * FIFO, terminal or character device is written in place, "-" is stdout
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "ctrl_escape.h"
#include "log.h"
#include "outfile.h"

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* What a path is, following symlinks: its target decides (a link to /proc/self/fd/1 is stdout). */
enum out_kind { OUT_STDOUT, OUT_NEW, OUT_REGULAR, OUT_STREAM, OUT_BAD };

static enum out_kind out_kind_of(const char *path, struct stat *st, const char **why)
{
	if (!strcmp(path, "-"))
		return OUT_STDOUT;
	if (stat(path, st)) {
		if (errno == ENOENT) {
			struct stat lst;

			/* A dangling symlink: creating its target would write somewhere unseen. */
			if (!lstat(path, &lst) && S_ISLNK(lst.st_mode)) {
				*why = "it is a symbolic link to a file that does not exist";
				return OUT_BAD;
			}
			return OUT_NEW;
		}
		*why = strerror(errno);
		return OUT_BAD;
	}
	if (S_ISREG(st->st_mode))
		return OUT_REGULAR;
	if (S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode))
		return OUT_STREAM;
	*why = S_ISDIR(st->st_mode)    ? "it is a folder: give a file name"
	       : S_ISBLK(st->st_mode)  ? "it is a block device: copyprof does not write to disks"
	       : S_ISSOCK(st->st_mode) ? "it is a socket: give a file, a FIFO or '-'"
				       : "it is not a file copyprof can write";
	return OUT_BAD;
}

/*
 * The temp file's name: "NAME.tmp.XXXXXX" beside NAME, or "copyprof.tmp.XXXXXX" in NAME's
 * folder when NAME is too long for the suffix (NAME_MAX). NULL if out of memory.
 */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char *tmp;

	if (strlen(base) + sizeof(".tmp.XXXXXX") - 1 <= NAME_MAX) {
		if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
			return NULL;
	} else if (asprintf(&tmp, "%.*scopyprof.tmp.XXXXXX", (int)(base - path), path) < 0) {
		return NULL;
	}
	return tmp;
}

/* The real path of a symlinked regular file, so that the rename replaces the target. */
static char *rename_target(const char *path)
{
	struct stat lst;

	if (!lstat(path, &lst) && S_ISLNK(lst.st_mode))
		return realpath(path, NULL);
	return strdup(path);
}

static int write_stream(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC), err;

	if (fd < 0) {
		err = -errno;
		p_err("cannot open %s for writing: %s", path, strerror(errno));
		return err;
	}
	err = write_all(fd, data, len);
	if (close(fd) && !err && errno != EINTR)
		err = -errno;
	if (err)
		p_err("cannot write %s: %s", path, strerror(-err));
	return err;
}

static int write_replace(const char *path, const struct stat *old, const void *data, size_t len)
{
	sigset_t block, orig;
	char *target = rename_target(path), *tmp = target ? temp_name(target) : NULL;
	int fd, err;

	if (!tmp) {
		free(target);
		p_err("cannot write %s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	/* Keep SIGINT/SIGTERM from landing between create and rename. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &orig);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		p_err("cannot create %s: %s (the temporary file %s)", path,
		      errno == ENOENT ? "its folder does not exist" : strerror(errno), tmp);
		goto out;
	}
	/* A new file is 0644; a replaced one keeps its mode and, where allowed, its owner. */
	fchmod(fd, old ? old->st_mode & 07777 : 0644);
	if (old && (old->st_uid != geteuid() || old->st_gid != getegid()) &&
	    fchown(fd, old->st_uid, old->st_gid))
		p_warn("%s: cannot keep its owner %u:%u (%s): it now belongs to %u:%u", path,
		       (unsigned)old->st_uid, (unsigned)old->st_gid, strerror(errno),
		       (unsigned)geteuid(), (unsigned)getegid());
	err = write_all(fd, data, len);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, target))
		err = -errno;
	if (err) {
		p_err("cannot write %s: %s", path, strerror(-err));
		unlink(tmp);
	} else if (old && old->st_nlink > 1) {
		p_warn("%s had %lu hard links: it was replaced by a new file, and its other "
		       "%lu name%s keep%s the old contents",
		       path, (unsigned long)old->st_nlink, (unsigned long)old->st_nlink - 1,
		       old->st_nlink == 2 ? "" : "s", old->st_nlink == 2 ? "s" : "");
	}
out:
	sigprocmask(SIG_SETMASK, &orig, NULL);
	free(tmp);
	free(target);
	return err;
}

int outfile_write(const char *path, const void *data, size_t len)
{
	const char *why = "";
	struct stat st;
	int err;

	switch (out_kind_of(path, &st, &why)) {
	case OUT_STDOUT:
		err = write_all(STDOUT_FILENO, data, len);
		if (err)
			p_err("cannot write to standard output: %s", strerror(-err));
		return err;
	case OUT_STREAM:
		return write_stream(path, data, len);
	case OUT_NEW:
		return write_replace(path, NULL, data, len);
	case OUT_REGULAR:
		return write_replace(path, &st, data, len);
	case OUT_BAD:
		break;
	}
	p_err("cannot write %s: %s", path, why);
	return -EINVAL;
}

int outfile_write_text(const char *path, const char *text, size_t len)
{
	char *clean;
	int err;

	if (ctrl_escape_clean(text, len))
		return outfile_write(path, text, len);
	clean = ctrl_escape_dup(text, len);
	if (!clean) {
		p_err("cannot write %s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	err = outfile_write(path, clean, strlen(clean));
	free(clean);
	return err;
}

int outfile_check(const char *path)
{
	const char *why = "";
	struct stat st;
	char *target, *tmp;
	int fd;

	switch (out_kind_of(path, &st, &why)) {
	case OUT_STDOUT:
		return 0;
	case OUT_STREAM:
		if (access(path, W_OK)) {
			p_err("cannot write %s: %s", path, strerror(errno));
			return -errno;
		}
		return 0;
	case OUT_NEW:
	case OUT_REGULAR:
		break;
	case OUT_BAD:
		p_err("cannot write %s: %s", path, why);
		return -EINVAL;
	}
	/* The one sure test that the folder takes a new file: make one and remove it. */
	target = rename_target(path);
	tmp = target ? temp_name(target) : NULL;
	if (!tmp) {
		free(target);
		return -ENOMEM;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		int err = -errno;

		p_err("cannot write %s: %s (checked before starting, so that no work is lost)",
		      path, errno == ENOENT ? "its folder does not exist" : strerror(errno));
		free(tmp);
		free(target);
		return err;
	}
	close(fd);
	unlink(tmp);
	free(tmp);
	free(target);
	return 0;
}
