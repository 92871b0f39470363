// SPDX-License-Identifier: GPL-2.0
/* paired_child.c: a batch of a paired measurement in a process of its own */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "calib_loop.h"
#include "lib/env_copy.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "paired_child.h"
#include "paired_wire.h"

/* This process's environment and PAIRED_CHILD_ENV; NULL without memory. */
static char **child_env(void)
{
	size_t k;
	char **env = env_copy(PAIRED_CHILD_ENV, 1, &k);

	if (env)
		env[k] = log_verbose ? PAIRED_CHILD_ENV "=2" : PAIRED_CHILD_ENV "=1";
	return env;
}

/* Starts this executable on pipes: @to_child its standard input, @from_child its output. */
static pid_t start(char **env, int to_child[2], int from_child[2])
{
	char *argv[] = { "copyprof", NULL };
	pid_t pid = fork();

	if (pid)
		return pid;
	if (dup2(to_child[0], 0) < 0 || dup2(from_child[1], 1) < 0)
		_exit(127);
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives the measurement */
	execve("/proc/self/exe", argv, env);
	_exit(127);
}

/*
 * A batch's process that gives no answer (stopped by SIGSTOP, a frozen cgroup or a debugger) is
 * killed once it has had its slot (the batch's slot_s) and then, for PAIRED_CHILD_GRACE times
 * that slot more, but never less than PAIRED_CHILD_GRACE_MIN_S, has used no CPU time at all: a
 * batch ends its own rounds at the slot's end, so what it may still need is to map its memory,
 * start and write its rounds back, which takes well under a second. A process that still runs,
 * however slowly (a busy or niced machine starves it), is waited for: only one that makes no
 * progress is taken for stopped.
 */
#define PAIRED_CHILD_GRACE 10
#define PAIRED_CHILD_GRACE_MIN_S 30.0

/* The batch's process the deadline is watching (0: none), and whether it was killed. */
static volatile sig_atomic_t watched_pid;
static volatile sig_atomic_t watch_fired;
/* Past the slot, a tick a second: the seconds since its CPU time last moved, and that time. */
static volatile sig_atomic_t idle_s, grace_ticks;
static unsigned long long last_cpu;

/*
 * utime + stime of @pid in clock ticks, from /proc/PID/stat, with only async-signal-safe calls;
 * 0 when it cannot be read (then the process counts as making no progress).
 */
static unsigned long long cpu_ticks(pid_t pid)
{
	char path[32] = "/proc/", digits[12], buf[512];
	unsigned long long v[2] = { 0, 0 };
	int n = 0, k = 6, fd, field = 2;
	ssize_t len;
	char *c;

	do
		digits[n++] = (char)('0' + pid % 10);
	while ((pid /= 10) && n < (int)sizeof(digits));
	while (n)
		path[k++] = digits[--n];
	memcpy(path + k, "/stat", 6);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	buf[len] = 0;
	c = strrchr(buf, ')'); /* the command's name may hold spaces and parentheses */
	for (; c && *c && field <= 15; c++) {
		if (*c == ' ')
			field++;
		else if (field >= 14 && *c >= '0' && *c <= '9')
			v[field - 14] = v[field - 14] * 10 + (unsigned long long)(*c - '0');
	}
	return v[0] + v[1];
}

static void on_deadline(int sig)
{
	unsigned long long cpu;

	(void)sig;
	if (watched_pid <= 0)
		return;
	cpu = cpu_ticks((pid_t)watched_pid);
	if (cpu != last_cpu) {
		last_cpu = cpu;
		idle_s = 0;
		return;
	}
	if (++idle_s < grace_ticks)
		return;
	kill((pid_t)watched_pid, SIGKILL); /* a stopped process is killed too */
	watch_fired = 1;
}

struct watch {
	struct sigaction old;
	double grace_s; /* what the deadline is past the slot's end, for the message */
};

/* Arms the deadline of @b's process @pid; 0, or -errno (then the batch runs unwatched). */
static int watch_start(struct watch *w, const struct paired_batch *b, pid_t pid)
{
	struct sigaction sa = { .sa_handler = on_deadline, .sa_flags = SA_RESTART };
	double slot = b->slot_s;
	/* From the slot's end (at least a second after the start), a tick a second. */
	struct itimerval it = { { 1, 0 }, { 1, 0 } };

	if (slot < 0)
		slot = 0;
	w->grace_s = PAIRED_CHILD_GRACE * slot;
	if (w->grace_s < PAIRED_CHILD_GRACE_MIN_S)
		w->grace_s = PAIRED_CHILD_GRACE_MIN_S;
	if (slot >= 1) {
		it.it_value.tv_sec = (time_t)slot;
		it.it_value.tv_usec = (suseconds_t)((slot - (double)(time_t)slot) * 1e6);
	}
	grace_ticks = (sig_atomic_t)w->grace_s;
	idle_s = 0;
	last_cpu = cpu_ticks(pid);
	watched_pid = pid;
	watch_fired = 0;
	if (sigaction(SIGALRM, &sa, &w->old))
		return -errno;
	if (setitimer(ITIMER_REAL, &it, NULL)) {
		sigaction(SIGALRM, &w->old, NULL);
		return -errno;
	}
	return 0;
}

/* Disarms the deadline: from here on @pid (waitable, not yet reaped) is not killed. */
static void watch_stop(struct watch *w)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	sigset_t alrm, old;

	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, &old);
	setitimer(ITIMER_REAL, &off, NULL);
	watched_pid = 0;
	sigaction(SIGALRM, &w->old, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The batch's outcome from how its process ended, when no rounds came back (@why). */
static int ended(int status, const char *why)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOEXEC;
	if (stop_requested())
		return -EINTR;
	if (WIFSIGNALED(status))
		p_err("replay: a batch's process was ended by signal %d: %s", WTERMSIG(status),
		      why);
	else
		p_err("replay: a batch's process exited with %d: %s", WEXITSTATUS(status), why);
	return -EIO;
}

/*
 * Waits for @pid to end, its deadline still armed (a process that wrote its rounds and then
 * stopped is killed too), then disarms it before reaping, so that no other process is ever
 * killed in its place. The wait status.
 */
static int wait_watched(pid_t pid, struct watch *w)
{
	siginfo_t si;
	int status = 0;

	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	watch_stop(w);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* Hands @b to process @pid and takes its rounds into @run; its outcome. */
static int exchange(pid_t pid, const struct paired_batch *b, int to, int from,
		    struct paired_run *run)
{
	FILE *out = fdopen(to, "w"), *in = out ? fdopen(from, "r") : NULL;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	struct watch w;
	char why[96] = "";
	int err, batch_err = 0, status = 0;

	if (!in) {
		if (out)
			fclose(out);
		else
			close(to);
		close(from);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -ENOMEM;
	}
	err = watch_start(&w, b, pid);
	if (err) {
		p_err("replay: cannot arm a batch's deadline: %s", strerror(-err));
		fclose(out);
		fclose(in);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return err;
	}
	sigaction(SIGPIPE, &ign, &old); /* a process gone early is seen below, not fatal */
	err = paired_wire_put_batch(out, b);
	fclose(out);
	sigaction(SIGPIPE, &old, NULL);
	if (!err)
		err = paired_wire_get_rounds(in, run, &batch_err, why, sizeof(why));
	fclose(in);
	status = wait_watched(pid, &w);
	/* Rounds that all came back stand: only a batch without them failed. */
	if (watch_fired && err && !stop_requested()) {
		p_err("replay: batch %zu's process %d gave no answer and used no CPU for %.0f s "
		      "past the end of its slot "
		      "(%d times the slot, at least %.0f s): killed; stopped (SIGSTOP, a frozen "
		      "cgroup, a debugger), it counts as a failed batch",
		      run->nr_batches, (int)pid, w.grace_s, PAIRED_CHILD_GRACE,
		      PAIRED_CHILD_GRACE_MIN_S);
		return -ETIMEDOUT;
	}
	if (err == -ENOMEM)
		return err;
	if (err)
		return ended(status, why[0] ? why : "no rounds came back");
	return batch_err;
}

int paired_child_batch(const struct paired_batch *b, struct paired_run *run)
{
	int to[2], from[2], err;
	char **env = child_env();
	pid_t pid;

	if (!env)
		return -ENOMEM;
	if (pipe2(to, O_CLOEXEC)) {
		free(env);
		return -ENOEXEC;
	}
	if (pipe2(from, O_CLOEXEC)) {
		close(to[0]);
		close(to[1]);
		free(env);
		return -ENOEXEC;
	}
	fflush(NULL);
	pid = start(env, to, from);
	free(env);
	close(to[0]);
	close(from[1]);
	if (pid < 0) {
		close(to[1]);
		close(from[0]);
		return -ENOEXEC;
	}
	err = exchange(pid, b, to[1], from[0], run);
	if (!err)
		p_debug("replay: batch %zu in process %d, its code at %#lx", run->nr_batches - 1,
			(int)pid, (unsigned long)run->batch_code[run->nr_batches - 1]);
	return err;
}

int paired_child_main(void)
{
	const char *level = getenv(PAIRED_CHILD_ENV);
	struct paired_run run = { 0 };
	struct paired_batch b;
	struct paired_plan pl;
	struct replay_mix mx;
	char why[96];
	int err;

	log_verbose = level && !strcmp(level, "2");
	err = paired_wire_get_batch(stdin, &b, &pl, &mx, why, sizeof(why));
	if (err) {
		p_err("replay: a batch's process: %s", why);
		replay_mix_free(&mx);
		return 2;
	}
	stop_install();
	run.nr_paths = pl.nr_paths;
	run.chunk = b.chunk;
	run.warmup = PAIRED_WARMUP;
	err = paired_batch_run(&b, &run);
	paired_path_reset();
	if (paired_wire_put_rounds(stdout, &run, err, (uintptr_t)calib_loop_calls) && !err)
		err = -EIO;
	paired_run_free(&run);
	replay_mix_free(&mx);
	return err ? 1 : 0;
}
