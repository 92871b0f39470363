/* SPDX-License-Identifier: GPL-2.0 */
/* flame_profile.h: a profile's flame graph frames: stacks, or site > caller > length */
#ifndef CP_FLAME_PROFILE_H
#define CP_FLAME_PROFILE_H

#include "flame_cost.h"
#include "profile/profile.h"
#include "tree.h"

/* What a frame's width counts. */
enum flame_weight { FLAME_SAMPLES, FLAME_CALLS, FLAME_BYTES, FLAME_TIME };

/* "samples", "calls", "bytes", "time". */
const char *flame_weight_name(enum flame_weight w);
/* -1 if @s names no weight. */
int flame_weight_parse(const char *s);
/* "1024-1151 B": bucket @b's lengths; exact buckets are one length ("16 B"). */
void flame_bucket_frame(uint32_t b, char *buf, size_t len);
/* Samples when every site of @p is sampled, else calls. */
enum flame_weight flame_default_weight(const struct profile *p);

struct flame_opts {
	enum flame_weight weight;
	int family;		   /* an enum est_family, or -1: every family */
	struct flame_costs *costs; /* FLAME_TIME: today's (and the threshold's) cost per bucket */
};

struct flame_stats {
	size_t sites;	 /* sites drawn */
	size_t skipped;	 /* sites of the other kind: counted ones for samples, sampled ones for
			    calls and bytes (their buckets count samples) */
	size_t no_stack; /* sampled sites without stacks (samples) */
};

/*
 * Adds @p's frames to @t. Samples: every sampled site's folded stacks, weighted by samples.
 * Calls, bytes, time: per site a frame "target:symbol+0xOFF [label]" (the target's base
 * name), under it one frame per caller for an entry site that counted them ("(no caller)"
 * for calls none took), and on top one frame per length bucket ("16 B", "1024-1151 B") in
 * length order; time is ns today, and with a threshold each frame also sums the ns at T (the
 * colour of the threshold view). 0, -ENOMEM, or -ENOENT when the cost model lacks a curve.
 */
int flame_from_profile(const struct profile *p, const struct flame_opts *o, struct fg_tree *t,
		       struct flame_stats *st);

#endif
