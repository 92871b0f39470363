// SPDX-License-Identifier: GPL-2.0
/* record_run.c: the course every recording takes, whatever counts: start, wait, write */
#include <stdio.h>
#include "lib/child.h"
#include "lib/host.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/monotime.h"
#include "lib/stop.h"
#include "profile/profile.h"
#include "record_run.h"

static void record_run_wait(const struct record_run_args *a, const struct recorder_ops *ops,
			    void *rec, struct child *c)
{
	struct stop_when w;

	stop_when_init(&w, a->duration, a->command ? c : NULL);
	while (!stop_when_due(&w))
		if (ops->wait(rec))
			return;
}

int record_run(const struct record_run_args *a, const struct recorder_ops *ops, void *rec)
{
	struct child child = CHILD_NONE;
	struct profile *p = profile_new();
	uint32_t tgid = a->pid;
	int status = EXIT_RUNTIME;
	double t0;

	/* A recording can't be repeated: make sure its file can be written before it starts. */
	if (!p || outfile_check(a->output) || ops->prepare(rec, p))
		goto out;
	stop_install();
	if (a->command) {
		if (child_spawn(a->command, &child))
			goto out;
		if (!a->all_tasks)
			tgid = (uint32_t)child.pid;
		p->meta.command = child_command_line(a->command);
	}
	if (ops->open(rec, tgid))
		goto out;
	host_fill_meta(&p->meta);
	t0 = monotime_s();
	if (a->command && child_release(&child, a->command[0]))
		goto out;
	if (!a->command && !a->duration)
		ops->announce(rec);
	record_run_wait(a, ops, rec, &child);
	p->meta.duration_s = monotime_s() - t0;
	if (ops->finish(rec, p))
		goto out;
	ops->print(rec, p);
	fflush(stdout);
	if (profile_save(p, a->output))
		goto out;
	status = EXIT_OK;
out:
	ops->close(rec);
	if (a->command)
		child_end(&child, a->command[0], !status);
	profile_free(p);
	return status;
}
