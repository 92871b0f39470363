/* SPDX-License-Identifier: GPL-2.0 */
/* export_origin.h: where a site was recorded (its group's kernel, CPU, host) for export labels */
#ifndef CP_EXPORT_ORIGIN_H
#define CP_EXPORT_ORIGIN_H

#include <stdbool.h>
#include <stdint.h>
#include "profile/profile.h"

/* Borrowed from the profile: valid while it is. NULL: unknown. */
struct export_origin {
	const char *kernel;
	const char *cpu_model;
	const char *host; /* the one host; NULL when the group sums several */
	uint64_t nr_hosts;
	double duration_s; /* the group's recorded seconds, summed over its recordings */
};

/* Group @group of a merged profile, or the implicit one group (meta) of an unmerged one. */
void export_origin_of(const struct profile *p, uint32_t group, struct export_origin *o);
/* How many groups @p has: its groups, or 1. */
uint32_t export_nr_groups(const struct profile *p);
/* meta.start ("2026-11-30T09:00:00Z") as seconds since the epoch; false if absent or malformed. */
bool export_start_time(const struct profile *p, int64_t *sec);
/* Whether @s counts samples (record --sample, import-perf) rather than calls. */
bool export_site_is_sampled(const struct profile_site *s);

#endif
