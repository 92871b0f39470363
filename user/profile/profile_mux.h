/* SPDX-License-Identifier: GPL-2.0 */
/* profile_mux.h: a multiplexed site's times and raw counts, and the scaling perf stat does */
#ifndef CP_PROFILE_MUX_H
#define CP_PROFILE_MUX_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

struct profile_site;

/*
 * A site that shared the debug registers with others (docs/profile-format.md#multiplexed-
 * sites): counted only while on a register, its counts scaled by enabled / running.
 */
struct site_mux {
	uint64_t enabled_ns; /* time the site was meant to be counted */
	uint64_t running_ns; /* of that, time it was on a debug register */
	uint64_t raw_calls;  /* calls counted, before scaling */
	uint64_t raw_bytes;
};

/*
 * Scales @s's buckets (and its callers') by @enabled_ns / @running_ns, keeping the raw totals
 * and the times in s->mux (allocated here). Each bucket's mean length is kept; calls and bytes
 * become the scaled buckets' sums. 0 or -ENOMEM.
 */
int site_mux_scale(struct profile_site *s, uint64_t enabled_ns, uint64_t running_ns);
/* The share of time @s was counted: running / enabled; 1 for a site that was not multiplexed. */
double site_mux_running(const struct profile_site *s);
/*
 * "scaled (running 31% of the time)", as perf stat says it, into @buf; "" for a site that was
 * not multiplexed or ran all the time (its counts are exact).
 */
const char *site_mux_describe(const struct profile_site *s, char *buf, size_t len);
void site_mux_to_json(const struct site_mux *m, json_object *site);
/* NULL when @site has no (well-formed) "multiplex" object. */
struct site_mux *site_mux_from_json(json_object *site);
/* Adds @src's times and raw counts into @dst (merge); allocates *@dst if needed. 0 or -ENOMEM. */
int site_mux_add(struct site_mux **dst, const struct site_mux *src, uint64_t unscaled_calls,
		 uint64_t unscaled_bytes);

#endif
