// SPDX-License-Identifier: GPL-2.0
/* progress.c: progress bar for long commands; silent when stderr is a file or a pipe */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "log.h"
#include "monotime.h"
#include "progress.h"

#define BAR 30

void progress_start(struct progress *p, size_t total)
{
	/* -v prints lines of its own, which a redrawn bar would garble. */
	p->on = isatty(STDERR_FILENO) && !log_verbose && total;
	p->total = total;
	p->last_draw = 0;
}

void progress_update(struct progress *p, size_t done, const char *what)
{
	double t;
	int i, full;

	if (!p->on)
		return;
	t = monotime_s();
	if (t - p->last_draw < 0.1 && done < p->total)
		return;
	p->last_draw = t;
	full = (int)(done * BAR / p->total);
	fputs("\r\033[K[", stderr);
	for (i = 0; i < BAR; i++)
		fputc(i < full ? '#' : '.', stderr);
	fprintf(stderr, "] %3d%%  %.40s", (int)(done * 100 / p->total), what);
	fflush(stderr);
}

void progress_end(struct progress *p)
{
	if (!p->on)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->on = false;
}
