/* SPDX-License-Identifier: GPL-2.0 */
/* profile_mux.h: a multiplexed site's times and raw counts, and the scaling perf stat does */
#ifndef CP_PROFILE_MUX_H
#define CP_PROFILE_MUX_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

struct profile_site;

/* How a multiplexed site's counts were scaled (profile-format.md#multiplexed-sites). */
enum site_mux_scaling {
	MUX_SCALING_TIME,      /* enabled / running, perf stat's rule */
	MUX_SCALING_REFERENCE, /* reference calls / reference calls while this site was armed */
	MUX_SCALING_NONE,      /* the reference site itself: on a register all the time, exact */
	MUX_SCALING_MIXED,     /* merge of recordings scaled differently */
};

/*
 * A site that shared the debug registers with others (docs/profile-format.md#multiplexed-
 * sites): counted only while on a register, its counts scaled by the share it saw.
 */
struct site_mux {
	uint64_t enabled_ns; /* time the site was meant to be counted */
	uint64_t running_ns; /* of that, time it was on a debug register */
	uint64_t raw_calls;  /* calls counted, before scaling */
	uint64_t raw_bytes;
	enum site_mux_scaling scaling;
	int32_t ref_site;	    /* the reference site's id, -1 for none */
	uint64_t ref_calls;	    /* the reference's calls over the recording */
	uint64_t ref_calls_running; /* of those, the calls while this site was armed */
	/*
	 * The reference's calls during the moves that armed or disarmed this site (when it is
	 * not known which site counted), and the part of them in ref_calls_running (half).
	 */
	uint64_t ref_calls_moves;
	uint64_t ref_calls_moves_credited;
};

/*
 * Scales @s's buckets (and its callers') by the factor @m's scaling gives (time: enabled /
 * running; reference: ref_calls / ref_calls_running; none: 1), keeping the raw totals, the
 * times and the reference counts in s->mux (a copy of @m, allocated here). Each bucket's mean
 * length is kept; calls and bytes become the scaled buckets' sums. 0 or -ENOMEM.
 */
int site_mux_scale(struct profile_site *s, const struct site_mux *m);
/* The share of time @s was on a register: running / enabled; 1 when not multiplexed. */
double site_mux_running(const struct profile_site *s);
/*
 * The share of @s's calls that were counted, which scaling inverts: running / enabled for time
 * scaling, the reference's share for reference scaling, raw / scaled calls after a merge of
 * both; 1 when not multiplexed.
 */
double site_mux_share(const struct profile_site *s);
const char *site_mux_scaling_name(enum site_mux_scaling sc);
/*
 * "scaled (running 31% of the time)", as perf stat says it, with ", 38% of site 0's calls" for
 * reference scaling, into @buf (64 bytes are enough); "" for a site that was not multiplexed
 * or ran all the time (its counts are exact).
 */
const char *site_mux_describe(const struct profile_site *s, char *buf, size_t len);
void site_mux_to_json(const struct site_mux *m, json_object *site);
/* NULL when @site has no (well-formed) "multiplex" object. */
struct site_mux *site_mux_from_json(json_object *site);
/* Adds @src's times and raw counts into @dst (merge); allocates *@dst if needed. 0 or -ENOMEM. */
int site_mux_add(struct site_mux **dst, const struct site_mux *src, uint64_t unscaled_calls,
		 uint64_t unscaled_bytes);

#endif
