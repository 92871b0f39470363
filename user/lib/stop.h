/* SPDX-License-Identifier: GPL-2.0 */
/* stop.h: when a recording ends: a signal (ended cleanly), a duration or the command's exit */
#ifndef CP_STOP_H
#define CP_STOP_H

#include <stdbool.h>

struct child;

/*
 * SIGINT, SIGTERM and SIGHUP ask to stop, from now on: install before anything slow, so that a
 * signal that comes while starting is not lost (a background job of a shell script starts with
 * SIGINT ignored, and a signal ignored is gone).
 */
void stop_install(void);
/* As stop_install(), but SIGHUP asks a long-running daemon to reload (re-plan) instead. */
void stop_install_reload(void);
/* True once per SIGHUP since the last call (stop_install_reload() only). */
bool stop_reload_requested(void);
bool stop_requested(void);
/* The signal that asked to stop, or 0. */
int stop_signal(void);

/* Why a recording ended (stop_when_due), as a profile records it ("ended_by"). */
enum stop_reason { STOP_NOT_YET, STOP_SIGNAL, STOP_DURATION, STOP_COMMAND };

/* The end of one recording, decided in one place for every recorder. */
struct stop_when {
	double end;		 /* monotime_s() deadline; 0: none */
	struct child *child;	 /* the COMMAND to wait for; NULL: none */
	enum stop_reason reason; /* set once stop_when_due() is true */
};

/* "signal", "duration", "command" (the COMMAND exited), or NULL while not stopped. */
const char *stop_reason_name(enum stop_reason r);

/* From now, @duration seconds (0: no limit); @c is the COMMAND, or NULL. */
void stop_when_init(struct stop_when *w, double duration, struct child *c);
/* True once a signal asked to stop, the duration passed or the command exited (reaped). */
bool stop_when_due(struct stop_when *w);

#endif
