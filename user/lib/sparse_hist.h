/* SPDX-License-Identifier: GPL-2.0 */
/* sparse_hist.h: a length histogram that keeps only its non-empty buckets, in bucket order */
#ifndef CP_SPARSE_HIST_H
#define CP_SPARSE_HIST_H

#include <stdint.h>
#include "hist.h"

/* One bucket of a sparse histogram. */
struct hist_bucket {
	uint32_t b;	/* the bucket (cp_bucket_of), < CP_NBUCKETS */
	uint64_t count; /* calls */
	uint64_t bytes; /* their lengths, summed */
};

/*
 * A site's length histogram as profiles hold it: the buckets it has, ascending by b (the
 * 337 of the bucketing would take 5.4 KB a site, docs/profile-format.md#limits). An entry may
 * hold zeros (a bucket added to and scaled down); readers treat it as absent. A zeroed struct
 * is an empty histogram.
 */
struct sparse_hist {
	struct hist_bucket *v;
	uint32_t nr, cap;
};

/* (No pointer arithmetic on the NULL of an empty histogram.) */
#define sparse_hist_for_each(h, e) for ((e) = (h)->v; (e) && (e) < (h)->v + (h)->nr; (e)++)

/* The entry of bucket @b, made (zero) in its place if missing; NULL when out of memory. */
struct hist_bucket *sparse_hist_slot(struct sparse_hist *h, uint32_t b);
/* Adds @count calls and @bytes to bucket @b (nothing for 0, 0). 0 or -ENOMEM. */
int sparse_hist_add(struct sparse_hist *h, uint32_t b, uint64_t count, uint64_t bytes);
/* Bucket @b's counts ({0, 0} when it has none). */
struct hist_slot sparse_hist_get(const struct sparse_hist *h, uint32_t b);
/* Room for @n entries in all (a reader that knows how many are coming). 0 or -ENOMEM. */
int sparse_hist_reserve(struct sparse_hist *h, uint32_t n);
/* Fills @out (CP_NBUCKETS slots) with @h, the empty buckets zero. */
void sparse_hist_dense(const struct sparse_hist *h, struct hist_slot *out);
/* Makes @h the non-empty slots of @in (CP_NBUCKETS of them). 0 or -ENOMEM. */
int sparse_hist_set_dense(struct sparse_hist *h, const struct hist_slot *in);
/* Makes @dst a copy of @src. 0 or -ENOMEM. */
int sparse_hist_copy(struct sparse_hist *dst, const struct sparse_hist *src);
/* Sums of the counts and bytes. */
uint64_t sparse_hist_calls(const struct sparse_hist *h);
uint64_t sparse_hist_bytes(const struct sparse_hist *h);
/* Drops entries whose count and bytes are both 0. */
void sparse_hist_prune(struct sparse_hist *h);
/* Empties @h and keeps its memory (a live view read again). */
void sparse_hist_clear(struct sparse_hist *h);
void sparse_hist_free(struct sparse_hist *h);

#endif
