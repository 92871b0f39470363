/* SPDX-License-Identifier: GPL-2.0 */
/* sample_session.h: the life of sample.bpf.c: events on every CPU, ring buffer, counters */
#ifndef CP_SAMPLE_SESSION_H
#define CP_SAMPLE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "cp_shared.h"
#include "sample.h"

struct sample_session;
struct cgroup_set;

struct sample_opts {
	uint32_t tgid;	  /* 0: every process */
	bool inherit;	  /* with @tgid: and the processes it starts (task_follow.h) */
	const char *comm; /* NULL: every command name */
	/* cgroup v2 directories: their tasks and below (kernel/cgroup.h); NULL or none: any */
	const struct cgroup_set *cgroups;
	uint32_t hz;	   /* samples per second per CPU */
	const char *event; /* "cycles", "cpu-clock" ...; NULL: cycles, else cpu-clock */
	const struct sample_range *ranges; /* sorted by start, non-overlapping */
	size_t nr_ranges;
	/*
	 * Also count user-mode samples in the functions set by sample_session_func_set()
	 * (bpf_find_vma: Linux 5.17+). With @funcs_only no kernel copy is sampled at all.
	 */
	bool user_funcs, funcs_only;
	bool user_stacks; /* record --user-stacks: each copy sample's user stack too */
};

/* Called for every copy-family record drained from the ring buffer. */
typedef int (*sample_handler)(void *ctx, const struct sample_rec *rec);

/* Events to the names -e accepts; -1 if unknown. */
int sample_event_parse(const char *name);
/*
 * Opens the event on every online CPU, loads the program with the filters and ranges and
 * attaches it. Falls back from cycles to cpu-clock with a notice when the PMU refuses.
 * Prints the reason and returns NULL on failure.
 */
struct sample_session *sample_session_open(const struct sample_opts *o, sample_handler fn,
					   void *ctx);
/* The event actually sampled. */
const char *sample_session_event(const struct sample_session *ss);
/* Drains the ring buffer, waiting up to @timeout_ms. Returns records handled or -errno. */
int sample_session_poll(struct sample_session *ss, int timeout_ms);
/* Detaches every event (counting stops) and drains what is left. */
void sample_session_stop(struct sample_session *ss);
/* Sums the per-CPU counters (enum sample_counter). */
int sample_session_counters(struct sample_session *ss, uint64_t out[SAMPLE_CNT_NR]);
/*
 * The kernel stack @stackid (or with @user, the user stack @stackid of ustackmap), leaf first,
 * into @ips (at most @max). Returns frames or -errno.
 */
int sample_session_stack(struct sample_session *ss, int32_t stackid, bool user, uint64_t *ips,
			 size_t max);
/* Calls @fn for every (kernel stack, user stack, process) the kernel counted, with its count. */
int sample_session_stack_counts(struct sample_session *ss,
				void (*fn)(void *ctx, const struct sample_stack_key *k,
					   const struct sample_stack_val *v),
				void *ctx);
/* Sets function slot @i (< SAMPLE_MAX_FUNCS) while sampling; ino 0 frees it. 0 or -errno. */
int sample_session_func_set(struct sample_session *ss, uint32_t i, const struct sample_func *f);
/* Samples counted in function slot @i so far, summed over CPUs. */
int sample_session_func_count(struct sample_session *ss, uint32_t i, uint64_t *out);
/* Detaches everything and frees the session; NULL is fine. */
void sample_session_destroy(struct sample_session *ss);

#endif
