/* SPDX-License-Identifier: GPL-2.0 */
/* child.h: start a command held at a gate, so probes attach before it runs its main code */
#ifndef CP_CHILD_H
#define CP_CHILD_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

struct child {
	pid_t pid;
	int gate_fd; /* write end: one byte lets the child exec */
	int exec_fd; /* read end: the child's errno if exec failed, EOF if it succeeded */
	bool exited;
	int status;	  /* wait status once exited */
	struct rusage ru; /* once exited: its CPU time and its waited-for descendants' */
};

/* A struct child with no process yet: what child_end() may safely be given. */
#define CHILD_NONE                                                                                 \
	{                                                                                          \
		.pid = -1, .gate_fd = -1, .exec_fd = -1                                            \
	}

/*
 * Forks; the child waits at the gate. With @stdout_to_stderr its stdout is copyprof's stderr
 * (stdout carries a profile). Returns 0 or -errno (printed).
 */
int child_spawn(char *const argv[], bool stdout_to_stderr, struct child *c);
/* Opens the gate; returns 0 once exec succeeded, or -errno (printed) if it failed. */
int child_release(struct child *c, const char *name);
/* Closes the gate without releasing (the child exits) and reaps it. */
void child_abort(struct child *c);
/* Non-blocking: true once the child has exited (status in c->status). */
bool child_poll(struct child *c);
/* Sends @sig to a child that still runs, then waits for it. */
void child_stop(struct child *c, int sig);
/*
 * Ends the child however far it got: aborts it at the gate, or stops a running one with
 * SIGTERM, and reaps it. With @warn_status, warns if @name exited with a non-zero status.
 * Nothing to do if no child was spawned (CHILD_NONE).
 */
void child_end(struct child *c, const char *name, bool warn_status);
/* @argv joined by single spaces, for the profile's meta (caller frees); NULL if out of memory. */
char *child_command_line(char *const argv[]);

#endif
