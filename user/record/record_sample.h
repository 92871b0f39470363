/* SPDX-License-Identifier: GPL-2.0 */
/* record_sample.h: `copyprof record --sample`: timed kernel samples into a sampled profile */
#ifndef CP_RECORD_SAMPLE_H
#define CP_RECORD_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

struct record_sample_args {
	uint32_t hz;		/* per CPU */
	const char *event;	/* NULL: cycles, falling back to cpu-clock */
	const char *cgroup;	/* cgroup v2 directory, or NULL */
	uint32_t pid;
	const char *comm;
	double duration;	/* 0: until COMMAND exits or a signal */
	const char *output;
	char **command;		/* NULL-terminated, or NULL */
	bool all_tasks;		/* with COMMAND: sample every task while it runs, not just it */
};

#define RECORD_SAMPLE_DEFAULT_HZ 999

/* Runs the recording; returns an exit status (log.h). --leaf symbols are in copy_family already. */
int record_sample(const struct record_sample_args *a);

#endif
