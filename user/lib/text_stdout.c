// SPDX-License-Identifier: GPL-2.0
/* text_stdout.c: standard output for text: controls escaped, write errors an exit status of 1 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ctrl_escape.h"
#include "log.h"
#include "text_stdout.h"

static struct ctrl_escape escape_state;
static int write_errno; /* the first write that failed, 0 if none */
static int finished;

static int to_fd1(void *ctx, const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(STDOUT_FILENO, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

static ssize_t stream_write(void *cookie, const char *buf, size_t len)
{
	int err;

	if (write_errno) {
		errno = write_errno;
		return -1;
	}
	err = ctrl_escape_write(&escape_state, buf, len, false, to_fd1, NULL);
	if (err) {
		write_errno = errno = -err;
		return -1;
	}
	return (ssize_t)len;
}

/* The stream's end: a UTF-8 sequence left cut short is written escaped. */
static int stream_close(void *cookie)
{
	int err;

	if (write_errno || !escape_state.nr_carry)
		return write_errno ? -1 : 0;
	err = ctrl_escape_write(&escape_state, "", 0, true, to_fd1, NULL);
	if (err)
		write_errno = -err;
	return err ? -1 : 0;
}

/* Whether everything printed was written; says why not, once. */
static int check(void)
{
	int failed, err;

	errno = 0;
	failed = fflush(stdout) || ferror(stdout) || stream_close(NULL);
	err = write_errno ? write_errno : errno ? errno : EIO;
	finished = 1;
	if (!failed)
		return 0;
	log_json = false; /* {"error": ...} would go where nothing can be written */
	p_err("cannot write standard output: %s", strerror(err));
	return -1;
}

/* exit() from inside a command (argp after --help): the same check, the same status. */
static void check_at_exit(void)
{
	if (!finished && check())
		_exit(EXIT_RUNTIME);
}

void text_stdout_install(void)
{
	cookie_io_functions_t io = { .write = stream_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return; /* plain stdout then: still correct, only not escaped */
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	stdout = f;
	atexit(check_at_exit);
}

int text_stdout_finish(int status)
{
	if (finished)
		return status;
	return check() ? EXIT_RUNTIME : status;
}
