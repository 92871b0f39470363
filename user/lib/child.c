// SPDX-License-Identifier: GPL-2.0
/* child.c: the "-- COMMAND" of record: fork, wait at a pipe gate, exec */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "child.h"
#include "log.h"

static void child_main(char *const argv[], int gate, int report, bool stdout_to_stderr)
{
	char go;
	int err;

	/* EOF instead of a byte: copyprof gave up before attaching. */
	if (read(gate, &go, 1) != 1)
		_exit(127);
	close(gate);
	if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(127);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execvp(argv[0], argv);
	err = errno;
	if (write(report, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

int child_spawn(char *const argv[], bool stdout_to_stderr, struct child *c)
{
	int gate[2], report[2];

	*c = (struct child){ .pid = -1, .gate_fd = -1, .exec_fd = -1 };
	if (pipe2(gate, O_CLOEXEC) || pipe2(report, O_CLOEXEC)) {
		p_err("cannot create a pipe: %s", strerror(errno));
		return -errno;
	}
	c->pid = fork();
	if (c->pid < 0) {
		p_err("cannot fork: %s", strerror(errno));
		return -errno;
	}
	if (c->pid == 0) {
		close(gate[1]);
		close(report[0]);
		child_main(argv, gate[0], report[1], stdout_to_stderr);
	}
	close(gate[0]);
	close(report[1]);
	c->gate_fd = gate[1];
	c->exec_fd = report[0];
	return 0;
}

int child_release(struct child *c, const char *name)
{
	int err = 0;
	ssize_t n;

	if (write(c->gate_fd, "g", 1) != 1) {
		p_err("cannot start '%s': %s", name, strerror(errno));
		return -errno;
	}
	close(c->gate_fd);
	c->gate_fd = -1;
	do
		n = read(c->exec_fd, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(c->exec_fd);
	c->exec_fd = -1;
	if (n == sizeof(err)) {
		p_err("cannot run '%s': %s", name, strerror(err));
		child_stop(c, 0);
		return -err;
	}
	return 0;
}

void child_abort(struct child *c)
{
	if (c->gate_fd >= 0)
		close(c->gate_fd);
	if (c->exec_fd >= 0)
		close(c->exec_fd);
	c->gate_fd = c->exec_fd = -1;
	child_stop(c, 0);
}

bool child_poll(struct child *c)
{
	if (c->pid <= 0 || c->exited)
		return true;
	if (wait4(c->pid, &c->status, WNOHANG, &c->ru) == c->pid)
		c->exited = true;
	return c->exited;
}

void child_stop(struct child *c, int sig)
{
	if (c->pid <= 0 || c->exited)
		return;
	if (sig)
		kill(c->pid, sig);
	while (wait4(c->pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
		;
	c->exited = true;
}

void child_end(struct child *c, const char *name, bool warn_status)
{
	if (c->pid <= 0)
		return;
	if (c->gate_fd >= 0)
		child_abort(c);
	/* A child that already ended on its own is reported; one we stopped is not. */
	if (child_poll(c) && warn_status) {
		if (WIFEXITED(c->status) && WEXITSTATUS(c->status))
			p_warn("'%s' exited with status %d", name, WEXITSTATUS(c->status));
		else if (WIFSIGNALED(c->status))
			p_warn("'%s' was killed by signal %d (SIG%s%s); a shell would show exit "
			       "status %d",
			       name, WTERMSIG(c->status), sigabbrev_np(WTERMSIG(c->status)) ?: "?",
			       WCOREDUMP(c->status) ? ", core dumped" : "",
			       128 + WTERMSIG(c->status));
		return;
	}
	child_stop(c, SIGTERM);
}

char *child_command_line(char *const argv[])
{
	char *const *p;
	size_t len = 1;
	char *s;

	for (p = argv; *p; p++)
		len += strlen(*p) + 1;
	s = calloc(1, len);
	for (p = argv; s && *p; p++) {
		if (p != argv)
			strcat(s, " ");
		strcat(s, *p);
	}
	return s;
}
