/* SPDX-License-Identifier: GPL-2.0 */
/* replay_mix.h: drawing calls from a family's mix: lengths by bucket, alignments, cache states */
#ifndef CP_REPLAY_MIX_H
#define CP_REPLAY_MIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "costmodel/costmodel.h"
#include "lib/hist.h"
#include "estimate/estimate_exact.h"
#include "estimate/estimate_options.h"
#include "profile/profile_order.h"

/* Lengths above this are left out of a replay (and said to be). */
#define REPLAY_MAX_SIZE (64ULL << 20)

/*
 * A family's mix as a replay draws from it, as entries: a bucket's lengths are exact below 64;
 * a length the input knows exactly (estimate_exact.h) is an entry of its own, one length wide;
 * the rest of a bucket is uniform over [mean - w, mean + w] with w as wide as the bucket allows,
 * so that the mean of the bucket's remaining calls is kept. Address alignments (modulo 64) are drawn from the profile's
 * recorded counts when it has them, else uniformly; each call's cache state from @cache. Where
 * the profile recorded pointer distances, each call's distance class is drawn from its
 * bucket's recorded shares and the source is placed at that distance from the destination
 * (docs/estimate.md#pointer-distance); elsewhere the two sides are placed independently.
 */
struct replay_mix {
	size_t nr;	       /* entries with calls */
	uint64_t *lo, *hi;     /* each entry's lengths [lo, hi) */
	double *mean, *cdf;    /* the calls' mean length; cumulative share of calls */
	uint64_t max_len;      /* the longest length a draw can give */
	size_t left_out;       /* buckets beyond REPLAY_MAX_SIZE */
	bool aligned_recorded; /* alignments from the profile, not uniform */
	double dst_cdf[64], src_cdf[64];
	double cache_cdf[COSTMODEL_NR_CACHES];
	bool has_src; /* clear_user and memset have none */
	/* Per bucket (nr rows): cumulative shares of the distance classes (enum cp_dist_class);
	 * a row of zeros: none recorded for it. NULL when the mix has none at all. */
	double (*dist_cdf)[CP_NR_DIST];
	bool dist_recorded;
	double calls;	    /* the mix's calls (weights), for the record */
	double exact_calls; /* of them, drawn at their own lengths (one length wide entries) */
	/* The recorded call order (replay_mix_set_order()): runs of consecutive lengths, a pass's
	 * calls taking their lengths run after run; none: lengths drawn independently. */
	struct order_run *runs;
	size_t nr_runs;
};

/* One drawn call, before it is given addresses. */
struct replay_draw {
	uint64_t n;
	uint8_t dst_align, src_align; /* offsets within a 64-byte line */
	uint8_t cache;		      /* enum costmodel_cache */
	int8_t dist;	   /* enum cp_dist_class, or -1: the sides placed independently */
	uint16_t dist_off; /* all but OTHER: (dst - src) mod CP_DIST_PERIOD to place */
};

/*
 * From per-bucket calls and summed lengths (CP_NBUCKETS each), if not NULL 64 address
 * alignment counts per side, and, if not NULL, calls per distance class per bucket (CP_NBUCKETS x
 * CP_NR_DIST), and @nr_exact exact lengths @exact (ascending, counted within the buckets too).
 * Returns 0, -ENOENT if there are no calls within REPLAY_MAX_SIZE, or -ENOMEM;
 * replay_mix_free() either way.
 */
int replay_mix_init(struct replay_mix *mx, const double *calls, const double *bytes,
		    const double *dst_align, const double *src_align, const double *dist,
		    const struct est_exact *exact, size_t nr_exact, const struct est_cache *cache,
		    bool has_src);
/*
 * The input's recorded runs @runs[0..n) (copied) as the order of the replay's lengths; a run
 * with a length beyond REPLAY_MAX_SIZE is left out. 0 or -ENOMEM.
 */
int replay_mix_set_order(struct replay_mix *mx, const struct order_run *runs, size_t n);
/* The calls of mx's runs together. */
uint64_t replay_mix_order_calls(const struct replay_mix *mx);
void replay_mix_free(struct replay_mix *mx);
void replay_mix_draw(const struct replay_mix *mx, uint64_t *seed, struct replay_draw *d);
/* A call of length @n (the recorded order's), the rest of it drawn as replay_mix_draw() does. */
void replay_mix_draw_len(const struct replay_mix *mx, uint64_t n, uint64_t *seed,
			 struct replay_draw *d);
/* The most entries a mix has: every bucket and every exact length. */
#define REPLAY_MAX_ENTRIES (CP_NBUCKETS + EST_MAX_EXACT)
/* True if a call of the mix can fall in [lo, hi) (an entry with calls overlaps it). */
bool replay_mix_reaches(const struct replay_mix *mx, uint64_t lo, uint64_t hi);

#endif
