/* SPDX-License-Identifier: GPL-2.0 */
/* progress.h: a one-line progress bar on stderr, drawn only when stderr is a terminal */
#ifndef CP_PROGRESS_H
#define CP_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

struct progress {
	bool on;
	size_t total;
	double last_draw; /* seconds, CLOCK_MONOTONIC */
};

void progress_start(struct progress *p, size_t total);
/* Redraws at most ten times a second: bar, percentage and @what. */
void progress_update(struct progress *p, size_t done, const char *what);
/* Erases the bar so that the next message starts on a clean line. */
void progress_end(struct progress *p);

#endif
