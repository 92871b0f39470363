/* SPDX-License-Identifier: GPL-2.0 */
/* profile_sample.h: the profile fields of sampled recordings (record --sample, import-perf) */
#ifndef CP_PROFILE_SAMPLE_H
#define CP_PROFILE_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>

/*
 * Who a sample was taken in (docs/profile-format.md#who-copies): the process id (the tgid, as
 * bpftrace's pid) and the thread's command name (comm), as the kernel had them then.
 */
struct sample_task {
	uint32_t pid;
	const char *comm;
};

/*
 * A folded stack (root first, frames joined by ';') and its samples, in one task: a site's
 * stack taken in two processes is two entries. @has_task is false for profiles from before
 * issue 24 (and imports without comm): then pid and comm are unknown.
 */
struct sample_stack {
	char *frames;
	uint64_t count;
	bool has_task;
	uint32_t pid;
	char *comm;
};

/* What a "sample" site adds: its leaf, how well lengths were known, its stacks. */
struct sample_site_info {
	char *leaf; /* the copy routine sampled: memcpy, inline_rep_stosb ... (family: the site's) */
	uint64_t quality[3];	     /* samples by enum len_quality: unknown, approximate, exact */
	struct sample_stack *stacks; /* by count, descending; then by text, pid, comm */
	size_t nr_stacks;
};

/* Profile-level facts of a sampled recording. */
struct sample_meta {
	char *event;	    /* cpu-clock, cycles ... */
	uint32_t hz;	    /* sampling frequency per CPU; 0 if unknown (imported) */
	uint64_t total;	    /* every sample of the wanted tasks, copy or not */
	uint64_t idle;	    /* of those, the idle task's */
	uint64_t lost;	    /* copy samples whose registers were lost (counted, no length) */
	uint64_t malformed; /* import-perf: input lines that could not be parsed */
	char *fallback;	    /* why probes became sampling (record -p on a kernel without them) */
	char *scope;	    /* which stacks were kept ("stacks through FUNC, ..."); NULL: all */
	uint64_t outside;   /* copy samples left out by the scope */
	char *lengths_note; /* import-perf: why copy samples lack lengths, what to do; NULL */
};

void sample_site_info_free(struct sample_site_info *si);
/* Orders stacks as a profile keeps them: by count, descending, then text, pid, comm (qsort). */
int sample_stack_cmp(const void *a, const void *b);
/* True if @a and @b are the same stack in the same task (or both without one). */
bool sample_stack_same(const struct sample_stack *a, const struct sample_stack *b);
void sample_meta_free(struct sample_meta *sm);

/* Adds the fields to a site's / the meta's JSON object (docs/profile-format.md). */
void sample_site_to_json(const struct sample_site_info *si, json_object *site);
void sample_meta_to_json(const struct sample_meta *sm, json_object *meta);
/* Reads them back; NULL if the object has none. Unknown or malformed parts are skipped. */
struct sample_site_info *sample_site_from_json(json_object *site);
struct sample_meta *sample_meta_from_json(json_object *meta);

#endif
