// SPDX-License-Identifier: GPL-2.0
/*
 * outfile.c: where -o writes: a regular file is replaced whole (temp file, fsync, rename), a
 * FIFO, terminal or character device is written in place, "-" is stdout
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "ctrl_escape.h"
#include "log.h"
#include "outfile.h"

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

/* A file being written (outfile_open()): where it goes and how it is put in place. */
struct outfile {
	enum out_kind kind;
	char *path;   /* as given, for messages */
	char *target; /* a regular file: the one replaced (a symlink's target) */
	char *tmp;    /* ... and the temp file beside it */
	struct stat old;
	bool has_old;
	sigset_t orig; /* the signal mask before the temp file was made */
	FILE *f;
	int fd;
	int write_err; /* the first write(2)'s errno: stdio's error flag keeps no errno */
};

static void outfile_free(struct outfile *of)
{
	free(of->path);
	free(of->target);
	free(of->tmp);
	free(of);
}

/* @of's stream: its bytes to @of->fd, and the first failure's errno kept for the message. */
static ssize_t stream_write(void *cookie, const char *buf, size_t len)
{
	struct outfile *of = cookie;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(of->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!of->write_err)
				of->write_err = n < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int stream_close(void *cookie)
{
	return close(((struct outfile *)cookie)->fd);
}

/* The temp file beside @of's target, with the old file's mode and owner; signals held. */
static int open_replace(struct outfile *of)
{
	sigset_t block;

	of->target = rename_target(of->path);
	of->tmp = of->target ? temp_name(of->target) : NULL;
	if (!of->tmp) {
		p_err("cannot write %s: %s", of->path, strerror(ENOMEM));
		return -ENOMEM;
	}
	/* Keep SIGINT/SIGTERM from landing between create and rename (or unlink). */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &of->orig);
	of->fd = mkstemp(of->tmp);
	if (of->fd < 0) {
		int err = -errno;

		p_err("cannot create %s: %s (the temporary file %s)", of->path,
		      errno == ENOENT ? "its folder does not exist" : strerror(errno), of->tmp);
		sigprocmask(SIG_SETMASK, &of->orig, NULL);
		return err;
	}
	/* A new file is 0644; a replaced one keeps its mode and, where allowed, its owner. */
	fchmod(of->fd, of->has_old ? of->old.st_mode & 07777 : 0644);
	if (of->has_old && (of->old.st_uid != geteuid() || of->old.st_gid != getegid()) &&
	    fchown(of->fd, of->old.st_uid, of->old.st_gid))
		p_warn("%s: cannot keep its owner %u:%u (%s): it now belongs to %u:%u", of->path,
		       (unsigned)of->old.st_uid, (unsigned)of->old.st_gid, strerror(errno),
		       (unsigned)geteuid(), (unsigned)getegid());
	return 0;
}

int outfile_open(const char *path, struct outfile **out, FILE **f)
{
	struct outfile *of = calloc(1, sizeof(*of));
	const char *why = "";
	int err = 0;

	*out = NULL;
	*f = NULL;
	if (!of || !(of->path = strdup(path))) {
		p_err("cannot write %s: %s", path, strerror(ENOMEM));
		free(of);
		return -ENOMEM;
	}
	of->fd = -1;
	of->kind = out_kind_of(path, &of->old, &why);
	switch (of->kind) {
	case OUT_STDOUT:
		/*
		 * Its own stream on fd 1, the bytes as they are: stdout's FILE is for text (controls
		 * escaped, text_stdout.h), and what was printed there before goes first.
		 */
		fflush(stdout);
		of->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
		if (of->fd < 0) {
			err = -errno;
			p_err("cannot write to standard output: %s", strerror(errno));
		}
		break;
	case OUT_STREAM:
		of->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (of->fd < 0) {
			err = -errno;
			p_err("cannot open %s for writing: %s", path, strerror(errno));
		}
		break;
	case OUT_REGULAR:
		of->has_old = true;
		/* fall through */
	case OUT_NEW:
		err = open_replace(of);
		break;
	case OUT_BAD:
		p_err("cannot write %s: %s", path, why);
		err = -EINVAL;
		break;
	}
	if (!err && !of->f &&
	    !(of->f = fopencookie(
		      of, "w",
		      (cookie_io_functions_t){ .write = stream_write, .close = stream_close }))) {
		err = -errno;
		p_err("cannot write %s: %s", path, strerror(errno));
		return outfile_close(of, err);
	}
	if (err) {
		outfile_free(of);
		return err;
	}
	*out = of;
	*f = of->f;
	return 0;
}

/* Flushes and closes the stream: 0 or the first -errno. */
static int finish_stream(struct outfile *of)
{
	int err = 0;

	if (of->f && (fflush(of->f) || ferror(of->f)))
		err = -(of->write_err ?: errno ?: EIO);
	if (!err && of->kind != OUT_STDOUT && of->kind != OUT_STREAM && fsync(of->fd))
		err = -errno;
	if (of->f) {
		if (fclose(of->f) && !err && errno != EINTR)
			err = -errno;
	} else if (of->fd >= 0) {
		close(of->fd);
	}
	return err;
}

int outfile_close(struct outfile *of, int failed)
{
	int err;

	if (!of)
		return failed ? failed : -EINVAL;
	errno = 0;
	err = finish_stream(of);
	if (err && !failed) {
		if (of->kind == OUT_STDOUT)
			p_err("cannot write to standard output: %s", strerror(-err));
		else
			p_err("cannot write %s: %s", of->path, strerror(-err));
	}
	if (of->tmp) {
		if (!err && !failed && rename(of->tmp, of->target)) {
			err = -errno;
			p_err("cannot write %s: %s", of->path, strerror(errno));
		}
		if (err || failed)
			unlink(of->tmp);
		else if (of->has_old && of->old.st_nlink > 1)
			p_warn("%s had %lu hard links: it was replaced by a new file, and its "
			       "other %lu name%s keep%s the old contents",
			       of->path, (unsigned long)of->old.st_nlink,
			       (unsigned long)of->old.st_nlink - 1,
			       of->old.st_nlink == 2 ? "" : "s", of->old.st_nlink == 2 ? "s" : "");
		sigprocmask(SIG_SETMASK, &of->orig, NULL);
	}
	outfile_free(of);
	return failed ? failed : err;
}

int outfile_write(const char *path, const void *data, size_t len)
{
	struct outfile *of;
	FILE *f;
	int err = outfile_open(path, &of, &f);

	if (err)
		return err;
	/* A short write leaves the stream in error: outfile_close() says so and discards. */
	fwrite(data, 1, len, f);
	return outfile_close(of, 0);
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
