/* SPDX-License-Identifier: GPL-2.0 */
/* record_sample.h: `copyprof record --sample`: timed kernel samples into a sampled profile */
#ifndef CP_RECORD_SAMPLE_H
#define CP_RECORD_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include "record_run.h"

struct record_sample_args {
	struct record_run_args run; /* tasks, duration, COMMAND, output */
	uint32_t hz;		    /* per CPU */
	const char *event;	    /* NULL: cycles, falling back to cpu-clock */
	const char *const *cgroups; /* cgroup v2 directories (--cgroup, repeatable) */
	int nr_cgroups;
	const char *fallback; /* why probes became sampling, for the meta; NULL: asked for */
	/* Keep only samples whose stack goes through one of these functions (0: keep all). */
	const char *const *keep;
	size_t nr_keep;
	int poll_ms;	  /* how long each wait drains the ring buffer; 0: 100 ms */
	bool user_stacks; /* --user-stacks: user frames below the kernel ones */
};

#define RECORD_SAMPLE_DEFAULT_HZ 999

/*
 * Samples, then writes the profile (record_run.h); returns an exit status (log.h). --leaf
 * symbols are in copy_family already.
 */
int record_sample_run(const struct record_sample_args *a);

/*
 * The sampling recorder on its own (record_run.h's steps), for a recording that also counts
 * at probes (record_counted.c); free() it after its close step. NULL when out of memory.
 */
void *record_sample_new(const struct record_sample_args *a);
extern const struct recorder_ops record_sample_ops;

/*
 * While it records (after open): the copy samples so far appended to @p as sampled sites, and
 * @p->sample (allocated when NULL) set to the counters so far. The recording goes on; the
 * agent serves it live. Returns 0 or -errno.
 */
int record_sample_snapshot(void *rec, struct profile *p);
/* Copy samples kept so far (after the scope). */
uint64_t record_sample_copies(const void *rec);

#endif
