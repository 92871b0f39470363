/* SPDX-License-Identifier: GPL-2.0 */
/* record_run.h: the one course of a recording, shared by every recorder: start, wait, write */
#ifndef CP_RECORD_RUN_H
#define CP_RECORD_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct profile;

/* What every recorder is given: which tasks, how long, and where the profile goes. */
struct record_run_args {
	uint32_t pid;	    /* --pid; 0: every process */
	const char *comm;   /* --comm; NULL: every command name */
	double duration;    /* 0: until COMMAND exits or a signal */
	char **command;	    /* NULL-terminated, or NULL */
	bool all_tasks;	    /* with COMMAND: every task while it runs, not just its own */
	bool no_inherit;    /* with COMMAND: its own process only, not those it starts */
	const char *output; /* the profile's file; "-" is stdout; NULL: none (with -i) */
	double interval;    /* record -i: print each interval's histograms; 0: none */
};

/* A recorder's own steps; @rec is its state. Each prints why it fails. */
struct recorder_ops {
	/* Checks and loads what it needs before anything starts; may add sites to @p. */
	int (*prepare)(void *rec, struct profile *p);
	/*
	 * Opens and attaches, recording the tasks of process @tgid (0: every process) and, when
	 * @tgid is COMMAND's and not no_inherit, of the processes it starts (task_follow.h).
	 */
	int (*open)(void *rec, uint32_t tgid);
	/* What is recorded, for the start message ("recording 3 sites"). */
	void (*announce)(void *rec, char *buf, size_t size);
	/* Waits a moment while recording; non-zero ends the recording early. */
	int (*wait)(void *rec);
	/* Stops recording and puts what was recorded into @p. */
	int (*finish)(void *rec, struct profile *p);
	/* The summary, on @f (stdout; stderr when the profile goes to stdout). */
	void (*print)(void *rec, const struct profile *p, FILE *f);
	/*
	 * record -i: prints what was recorded since the last call on @f; NULL: not supported.
	 * The last interval is printed after finish, from the profile @final (NULL before), so
	 * that the intervals add up to the profile exactly.
	 */
	int (*interval)(void *rec, const struct profile *final, FILE *f);
	/* Releases what open and finish left, whichever step failed; before COMMAND is ended. */
	void (*close)(void *rec);
};

/*
 * Prepares, starts COMMAND held at its gate, opens, fills the host meta, releases COMMAND,
 * records until a signal, the duration or COMMAND's exit, finishes, prints the summary and
 * writes the profile. With -o -, stdout carries the profile only: the summary, the interval
 * histograms and COMMAND's stdout go to stderr. On a terminal, says what is recorded and
 * counts the duration down. Returns an exit status (log.h).
 */
int record_run(const struct record_run_args *a, const struct recorder_ops *ops, void *rec);

#endif
