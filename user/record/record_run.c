// SPDX-License-Identifier: GPL-2.0
/* record_run.c: the course every recording takes, whatever counts: start, wait, write */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/child.h"
#include "lib/host.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/proc_cpu.h"
#include "lib/monotime.h"
#include "lib/stop.h"
#include "profile/profile.h"
#include "record_glibc.h"
#include "profile/profile_args.h"
#include "record_run.h"

/* Where the words go: stderr when stdout carries the profile. */
static FILE *record_run_text(const struct record_run_args *a)
{
	return a->output && !strcmp(a->output, "-") ? stderr : stdout;
}

/* The countdown line on a terminal: "12 s left", redrawn when the whole second changes. */
static void record_run_countdown(double end, long *shown)
{
	long left = (long)ceil(end - monotime_s());

	if (left < 0)
		left = 0;
	if (left == *shown)
		return;
	*shown = left;
	fprintf(stderr, "\r  %ld s left ", left);
	fflush(stderr);
}

static void record_run_interval(const struct record_run_args *a, const struct recorder_ops *ops,
				void *rec, const struct profile *final)
{
	FILE *f = record_run_text(a);
	char when[16];
	time_t now = time(NULL);
	struct tm tm;

	strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&now, &tm));
	fprintf(f, "\n%s\n", when);
	if (ops->interval(rec, final, f))
		p_warn("cannot read this interval's counts");
	fflush(f);
}

/*
 * Records until due; with -i prints every interval but the last, which the caller prints from
 * the final profile, so that the intervals always add up to the profile. With -d, the intervals
 * are exactly ceil(duration / interval), the last one possibly shorter (or cut short by Ctrl-C).
 * Returns whether a last interval is due: always with -i.
 */
static bool record_run_wait(const struct record_run_args *a, const struct recorder_ops *ops,
			    void *rec, struct child *c, bool countdown, enum stop_reason *why)
{
	double start = monotime_s(), next = a->interval ? start + a->interval : 0;
	long shown = -1, printed = 0;
	long total = a->interval && a->duration ? (long)ceil(a->duration / a->interval - 1e-9) : 0;
	struct stop_when w;

	stop_when_init(&w, a->duration, a->command ? c : NULL);
	while (!stop_when_due(&w)) {
		if (countdown)
			record_run_countdown(w.end, &shown);
		if (ops->wait(rec))
			break;
		/* The last of a -d recording's intervals is the final profile's, never one here. */
		if (next && monotime_s() >= next && (!total || printed < total - 1)) {
			next += a->interval;
			record_run_interval(a, ops, rec, NULL);
			printed++;
		}
	}
	if (countdown)
		fprintf(stderr, "\r%20s\r", "");
	*why = w.reason;
	return a->interval;
}

/* Seconds of a rusage's user and system time. */
static double rusage_cpu_s(const struct rusage *ru)
{
	return (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) +
	       (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e6;
}

/*
 * The recorded process tree's CPU time (profile-format.md#cpu-time): a COMMAND's from wait4's
 * rusage once it exited (its own and its waited-for descendants'), else from /proc/PID/stat
 * as it runs; --pid's as the difference of /proc/PID/stat since @cpu0 (negative: unread).
 * Unknown (said with -v) when the process is gone or was never known.
 */
static void record_run_cpu(const struct record_run_args *a, const struct child *c, double cpu0,
			   struct host_meta *m)
{
	double now;

	if (a->command && c->exited) {
		m->cpu_s = rusage_cpu_s(&c->ru);
		m->cpu_known = true;
	} else if (a->command && !proc_cpu_read(c->pid, &now)) {
		m->cpu_s = now;
		m->cpu_known = true;
	} else if (!a->command && a->pid && cpu0 >= 0 && !proc_cpu_read((pid_t)a->pid, &now)) {
		m->cpu_s = now > cpu0 ? now - cpu0 : 0;
		m->cpu_known = true;
	} else {
		p_debug("the recorded processes' CPU time is not known: not stored");
	}
}

/* The start message: always when only Ctrl-C ends it; with -d only on a terminal. */
static bool record_run_announce(const struct record_run_args *a, const struct recorder_ops *ops,
				void *rec)
{
	char what[128] = "";

	ops->announce(rec, what, sizeof(what));
	if (!a->command && !a->duration) {
		p_info("%s; Ctrl-C to end", what);
		return false;
	}
	if (a->command || !isatty(STDERR_FILENO))
		return false;
	p_info("%s for %g s, Ctrl-C to stop early", what, a->duration);
	return !a->interval; /* interval output and a redrawn line do not mix */
}

int record_run(const struct record_run_args *a, const struct recorder_ops *ops, void *rec)
{
	bool to_stdout = a->output && !strcmp(a->output, "-");
	struct child child = CHILD_NONE;
	struct profile *p = profile_new();
	uint32_t tgid = a->pid;
	int status = EXIT_RUNTIME;
	enum stop_reason why = STOP_NOT_YET;
	bool countdown, last_due;
	double t0, cpu0 = -1;

	if (a->interval && !ops->interval) {
		p_err("this kind of recording has no per-interval view: leave out -i");
		status = EXIT_USAGE;
		goto out;
	}
	/* A recording can't be repeated: make sure its file can be written before it starts. */
	if (!p || (a->output && outfile_check(a->output)) || ops->prepare(rec, p))
		goto out;
	stop_install();
	if (a->command) {
		if (child_spawn(a->command, to_stdout, &child))
			goto out;
		if (!a->all_tasks)
			tgid = (uint32_t)child.pid;
		p->meta.command = child_command_line(a->command);
	}
	if (ops->open(rec, tgid))
		goto out;
	host_fill_meta(&p->meta);
	record_glibc_fill(p, a->command, a->pid);
	t0 = monotime_s();
	if (!a->command && a->pid && proc_cpu_read((pid_t)a->pid, &cpu0))
		cpu0 = -1;
	if (a->command && child_release(&child, a->command[0]))
		goto out;
	if (stop_requested())
		p_info("SIG%s came while starting: stopping at once",
		       sigabbrev_np(stop_signal()) ?: "?");
	countdown = record_run_announce(a, ops, rec);
	last_due = record_run_wait(a, ops, rec, &child, countdown, &why);
	p->meta.duration_s = monotime_s() - t0;
	record_run_cpu(a, &child, cpu0, &p->meta);
	/* How it ended says what it holds: a command's whole work, or a stretch of time (diff). */
	if (stop_reason_name(why))
		p->meta.ended_by = strdup(stop_reason_name(why));
	if (ops->finish(rec, p))
		goto out;
	/* len=arg3 where bpftrace's numbering says arg2: pointers counted as lengths. */
	profile_warn_len_suspects(p);
	if (last_due)
		record_run_interval(a, ops, rec, p);
	if (!a->interval)
		ops->print(rec, p, record_run_text(a));
	fflush(stdout);
	if (a->output && profile_save(p, a->output))
		goto out;
	status = EXIT_OK;
out:
	ops->close(rec);
	if (a->command)
		child_end(&child, a->command[0], !status);
	profile_free(p);
	return status;
}
