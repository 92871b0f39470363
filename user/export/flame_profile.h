/* SPDX-License-Identifier: GPL-2.0 */
/* flame_profile.h: a profile's flame graph frames: stacks, or caller > site > length */
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
/*
 * The frame of @slot, bucket @b's count and bytes: one length where they show every length in
 * it was the same ("4096 B": bytes are count times the bucket's lowest or highest length),
 * else the bucket's range as flame_bucket_frame() names it.
 */
void flame_slot_frame(uint32_t b, const struct hist_slot *slot, char *buf, size_t len);
/* Samples when every site of @p is sampled, else calls. */
enum flame_weight flame_default_weight(const struct profile *p);

struct flame_opts {
	enum flame_weight weight;
	int family;		   /* an enum copy_family, or -1: every family */
	struct flame_costs *costs; /* FLAME_TIME: today's (and the threshold's) cost per bucket */
	bool no_comm;		   /* samples: no process root frame (--no-comm) */
};

/*
 * A sampled stack's frames as a flame graph draws them: its process's name (comm) as the root
 * frame, as stackcollapse-perf does, unless @no_comm or the stack has no task. Caller frees;
 * NULL when out of memory.
 */
char *flame_stack_text(const struct sample_stack *st, bool no_comm);

struct flame_stats {
	size_t sites;	 /* sites drawn */
	size_t skipped;	 /* sites of the other kind: counted ones for samples, sampled ones for
			    calls and bytes (their buckets count samples) */
	size_t no_stack; /* sampled sites without stacks (samples) */
};

/*
 * Adds @p's frames to @t. Samples: every sampled site's folded stacks, weighted by samples, under
 * their process's name (flame_stack_text()).
 * Calls, bytes, time: the frames of a stack, root first: for an entry site that counted its
 * callers, one frame per caller ("(no caller)" for calls none took) under the site's frame
 * "target:symbol+0xOFF [label]" (the target's base name); for a sampled site, the frames all
 * its stacks share, the site and its leaf; on top one frame per length bucket ("16 B",
 * "1024-1151 B", or "4096 B" where every length in it was one, flame_slot_frame()) in
 * length order; time is ns today, and with a threshold each frame also sums the ns at T (the
 * colour of the threshold view). 0, -ENOMEM, or -ENOENT when the cost model lacks a curve.
 */
int flame_from_profile(const struct profile *p, const struct flame_opts *o, struct fg_tree *t,
		       struct flame_stats *st);

#endif
