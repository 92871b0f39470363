/* SPDX-License-Identifier: GPL-2.0 */
/* fleet_profile.h: a fleet's histograms from Prometheus as a profile, one group per CPU model */
#ifndef CP_FLEET_PROFILE_H
#define CP_FLEET_PROFILE_H

#include <stdbool.h>
#include <json-c/json.h>
#include "fleet_query.h"
#include "profile/profile.h"

/* Whether @s is a PromQL duration such as 1h, 90m, 7d or 1h30m. */
bool fleet_range_valid(const char *s);
/* Whether @s is a label selector ("{job=\"copyprof\"}"); why not in @why. */
bool fleet_selector_valid(const char *s, char *why, size_t len);
/*
 * Asks Prometheus for the increase of every agent's counters over the range, summed over hosts
 * per (CPU model, kernel) and site, and builds a merged-style profile: one group per CPU
 * model and kernel (with the CPU flags the agents report), one site per site and group, each
 * collapsed range's calls and bytes in the copyprof bucket of its mean length
 * (docs/fleet.md#precision). Prints why and returns -errno: unreachable, HTTP errors, nothing
 * matched, a series without cpu_model.
 */
int fleet_profile_fetch(const struct fleet_query *q, struct profile **out);

struct fleet_series;
/*
 * The profile of @fs's checked sites (fleet_series_check), grouped by CPU model and kernel,
 * each group with the CPU flags and hosts that @info (copyprof_agent_info by cpu_model,
 * kernel, cpu_flags, host; NULL: unknown) gives it. fleet_profile_fetch() ends with it.
 */
int fleet_profile_build(const struct fleet_series *fs, json_object *info, struct profile **out);

#endif
