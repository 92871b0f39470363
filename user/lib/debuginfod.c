// SPDX-License-Identifier: GPL-2.0
/* debuginfod.c: debuginfod-find in a child, its output read against a deadline */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "debuginfod.h"
#include "env_copy.h"
#include "log.h"
#include "monotime.h"
#include "reason.h"

struct child_output {
	char out[PATH_MAX];
	char err[512];
	size_t out_len, err_len;
};

/* The environment, with our DEBUGINFOD_TIMEOUT and DEBUGINFOD_RETRY_LIMIT where unset. */
static char **child_environment(char *timeout_var, char *retry_var, size_t len)
{
	size_t n;
	char **env = env_copy(NULL, 2, &n);

	if (!env)
		return NULL;
	if (!getenv("DEBUGINFOD_TIMEOUT")) {
		snprintf(timeout_var, len, "DEBUGINFOD_TIMEOUT=%d", DEBUGINFOD_DEFAULT_TIMEOUT_S);
		env[n++] = timeout_var;
	}
	if (!getenv("DEBUGINFOD_RETRY_LIMIT")) {
		snprintf(retry_var, len, "DEBUGINFOD_RETRY_LIMIT=%d", DEBUGINFOD_DEFAULT_RETRIES);
		env[n++] = retry_var;
	}
	return env;
}

static double deadline_seconds(void)
{
	const char *max = getenv("DEBUGINFOD_MAXTIME");
	char *end;
	long v;

	if (max && *max) {
		errno = 0;
		v = strtol(max, &end, 10);
		if (!errno && !*end && v > 0 && v < 86400)
			return (double)v + 5;
	}
	return DEBUGINFOD_DEFAULT_DEADLINE_S;
}

static void drain(int fd, char *buf, size_t size, size_t *len, bool *open)
{
	char scratch[256];
	ssize_t n;

	if (*len + 1 < size)
		n = read(fd, buf + *len, size - 1 - *len);
	else
		n = read(fd, scratch, sizeof(scratch)); /* keep the pipe flowing, drop the rest */
	if (n > 0 && *len + 1 < size)
		*len += (size_t)n;
	else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
		*open = false;
}

/* Reads both pipes until they close or the deadline passes; true if the deadline passed. */
static bool collect(int out_fd, int err_fd, struct child_output *o, double deadline)
{
	bool out_open = true, err_open = true;

	while (out_open || err_open) {
		struct pollfd p[2] = { { .fd = out_open ? out_fd : -1, .events = POLLIN },
				       { .fd = err_open ? err_fd : -1, .events = POLLIN } };
		double left = deadline - monotime_s();
		int r;

		if (left <= 0)
			return true;
		r = poll(p, 2, (int)(left * 1000) + 1);
		if (r < 0 && errno != EINTR)
			return false;
		if (p[0].revents)
			drain(out_fd, o->out, sizeof(o->out), &o->out_len, &out_open);
		if (p[1].revents)
			drain(err_fd, o->err, sizeof(o->err), &o->err_len, &err_open);
	}
	return false;
}

/* The last non-empty line of debuginfod-find's stderr, e.g. "Server query failed: ...". */
static const char *last_line(char *text)
{
	char *line = text, *nl;

	while ((nl = strchr(line, '\n')) && nl[1])
		line = nl + 1;
	line[strcspn(line, "\n")] = 0;
	return line;
}

/* " (no answer within 5 s, 1 retry: DEBUGINFOD_TIMEOUT, DEBUGINFOD_RETRY_LIMIT)" */
static const char *timeout_note(char *buf, size_t len)
{
	const char *t = getenv("DEBUGINFOD_TIMEOUT"), *r = getenv("DEBUGINFOD_RETRY_LIMIT");
	char tv[16], rv[16];

	snprintf(tv, sizeof(tv), "%d", DEBUGINFOD_DEFAULT_TIMEOUT_S);
	snprintf(rv, sizeof(rv), "%d", DEBUGINFOD_DEFAULT_RETRIES);
	snprintf(buf, len,
		 " (no answer within %.8s s, %.8s retries: DEBUGINFOD_TIMEOUT, "
		 "DEBUGINFOD_RETRY_LIMIT)",
		 t ?: tv, r ?: rv);
	return buf;
}

char *debuginfod_query(const char *build_id, char **why)
{
	char *argv[] = { "debuginfod-find", "debuginfo", (char *)build_id, NULL };
	const char *urls = getenv("DEBUGINFOD_URLS");
	struct child_output o = { .out_len = 0 };
	posix_spawn_file_actions_t fa;
	char timeout_var[64], retry_var[64], **env, *local_why = NULL, **w = why ?: &local_why;
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, status = 0, spawn_err;
	double start = monotime_s();
	bool late;
	pid_t pid;

	if (!urls || !*urls) {
		reason_add(w, "DEBUGINFOD_URLS is not set");
		goto fail;
	}
	env = child_environment(timeout_var, retry_var, sizeof(timeout_var));
	if (!env || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
		reason_add(w, "cannot start debuginfod-find: %s", strerror(errno));
		free(env);
		goto close_fail;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, err[1], STDERR_FILENO);
	p_debug("asking debuginfod (%s) for build id %s", urls, build_id);
	spawn_err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	close(out[1]);
	close(err[1]);
	out[1] = err[1] = -1;
	if (spawn_err) {
		reason_add(w,
			   "DEBUGINFOD_URLS is set but debuginfod-find %s (apt-get install "
			   "debuginfod)",
			   spawn_err == ENOENT ? "is not installed" : strerror(spawn_err));
		goto close_fail;
	}
	late = collect(out[0], err[0], &o, start + deadline_seconds());
	if (late)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	o.out[o.out_len] = o.err[o.err_len] = 0;
	o.out[strcspn(o.out, "\n")] = 0;
	if (late) {
		reason_add(w,
			   "debuginfod (%s) gave no answer for build id %s within %.0f s: killed",
			   urls, build_id, deadline_seconds());
	} else if (WIFEXITED(status) && !WEXITSTATUS(status) && o.out[0]) {
		close(out[0]);
		close(err[0]);
		return strdup(o.out);
	} else {
		const char *msg = o.err[0] ? last_line(o.err) : "";
		char note[160];

		reason_add(w, "debuginfod (%s) has no debug file for build id %s%s%s%s", urls,
			   build_id, *msg ? ": " : "", msg,
			   strstr(msg, "Timer") ? timeout_note(note, sizeof(note)) : "");
	}
close_fail:
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
fail:
	free(local_why);
	return NULL;
}
