/* SPDX-License-Identifier: GPL-2.0 */
/* profile_footprint.h: a site's footprint, the bytes each side touches per window of calls */
#ifndef CP_PROFILE_FOOTPRINT_H
#define CP_PROFILE_FOOTPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

/* One side's footprint in the window (docs/profile-format.md#footprint). */
struct footprint_side {
	uint64_t lines;	     /* distinct 64 B lines the sampled calls touched */
	uint64_t pages;	     /* distinct 4 KiB pages they touched */
	uint64_t lines_once; /* of those lines, the ones only one sampled call touched */
	uint64_t span;	     /* bytes from the lowest line touched to the end of the highest */
	uint64_t bytes;	     /* the estimate: bytes the window's calls, sampled or not, touch */
};

enum { FOOTPRINT_DST = 0, FOOTPRINT_SRC = 1, FOOTPRINT_SIDES };

/*
 * The window is the last @samples sampled calls, one every @every of the site's calls (per
 * CPU), @window_ns from the first to the last. @recorded: the recorder sampled addresses (the
 * site has a destination or a source); @side[s] is known where the site has that pointer.
 */
struct site_footprint {
	bool recorded;
	bool known[FOOTPRINT_SIDES];
	uint32_t every;
	uint32_t samples;
	uint64_t window_ns;
	struct footprint_side side[FOOTPRINT_SIDES];
};

/* One sampled call, as the recorder kept it. */
struct footprint_call {
	uint64_t ns, dst, src, len;
};

/* The fewest samples a footprint is read from: fewer say nothing about reuse. */
#define FOOTPRINT_MIN_SAMPLES 16

/*
 * @f from @n sampled calls (any order; @calls is sorted by time in place), one every @every,
 * with @has_dst and @has_src saying which pointers the site has. Lines a single sampled call
 * touched are taken as fresh at every call (each stands for @every calls' lines), the others as
 * a reused set: bytes = 64 * (lines - once + once * every), at most the span.
 */
void site_footprint_compute(struct site_footprint *f, struct footprint_call *calls, size_t n,
			    uint32_t every, bool has_dst, bool has_src);
/* Merge: per side the larger of @into's and @from's, the window of more samples. */
void site_footprint_merge(struct site_footprint *into, const struct site_footprint *from);
/* The per-side bytes a replay should copy within: the larger side's estimate; 0 if unknown. */
uint64_t site_footprint_bytes(const struct site_footprint *f);
json_object *site_footprint_to_json(const struct site_footprint *f);
/* @o (NULL: not recorded, an older profile) into @f. 0, or -EINVAL after printing why. */
int site_footprint_from_json(json_object *o, struct site_footprint *f, const char *name,
			     uint32_t site);

#endif
