// SPDX-License-Identifier: GPL-2.0
/* stop.c: one signal handler for every long-running subcommand, and when a recording ends */
#include <signal.h>
#include <string.h>
#include "child.h"
#include "monotime.h"
#include "stop.h"

static volatile sig_atomic_t stop_sig, hup_seen, hup_reloads;

static void on_signal(int sig)
{
	if (sig == SIGHUP && hup_reloads)
		hup_seen = 1;
	else
		stop_sig = sig;
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/*
	 * A stop is only a flag: reads in progress (kallsyms, a profile) go on rather than fail
	 * with EINTR. The waits between polls (epoll_wait, nanosleep) return early whatever this
	 * says, so a recording still stops at once.
	 */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void stop_install(void)
{
	hup_reloads = 0;
	install();
}

void stop_install_reload(void)
{
	hup_reloads = 1;
	install();
}

bool stop_reload_requested(void)
{
	if (!hup_seen)
		return false;
	hup_seen = 0;
	return true;
}

bool stop_requested(void)
{
	return stop_sig != 0;
}

int stop_signal(void)
{
	return stop_sig;
}

void stop_when_init(struct stop_when *w, double duration, struct child *c)
{
	w->end = duration ? monotime_s() + duration : 0;
	w->child = c;
	w->reason = STOP_NOT_YET;
}

bool stop_when_due(struct stop_when *w)
{
	if (stop_requested())
		w->reason = STOP_SIGNAL;
	else if (w->end && monotime_s() >= w->end)
		w->reason = STOP_DURATION;
	else if (w->child && child_poll(w->child))
		w->reason = STOP_COMMAND;
	return w->reason != STOP_NOT_YET;
}

const char *stop_reason_name(enum stop_reason r)
{
	static const char *const names[] = { NULL, "signal", "duration", "command" };

	return names[r];
}
