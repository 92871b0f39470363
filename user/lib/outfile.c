// SPDX-License-Identifier: GPL-2.0
/* outfile.c: atomic file replacement, so a crash or Ctrl-C never leaves a partial output */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
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

int outfile_write(const char *path, const void *data, size_t len)
{
	sigset_t block, old;
	char *tmp;
	int fd, err;

	if (!strcmp(path, "-"))
		return write_all(STDOUT_FILENO, data, len);
	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
		return -ENOMEM;
	/* Keep SIGINT/SIGTERM from landing between create and rename. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		p_err("cannot create %s: %s", tmp, strerror(errno));
		goto out;
	}
	fchmod(fd, 0644);
	err = write_all(fd, data, len);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		p_err("cannot write %s: %s", path, strerror(-err));
		unlink(tmp);
	}
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(tmp);
	return err;
}
