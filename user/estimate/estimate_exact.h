/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_exact.h: lengths known exactly (a size table's sizes), kept beside the buckets */
#ifndef CP_ESTIMATE_EXACT_H
#define CP_ESTIMATE_EXACT_H

#include <stddef.h>
#include <stdint.h>

/*
 * A length's calls, counted within its bucket (the bucket's n and bytes include them): a
 * replay draws them as themselves and smooths only the rest of the bucket
 * (docs/estimate.md#lengths). Lengths below CP_EXACT_LIMIT have buckets of their own and are
 * never listed.
 */
struct est_exact {
	uint64_t len;
	double n;
};

/* The most exact lengths a site or a family keeps: the ones with the most calls. */
#define EST_MAX_EXACT 4096

/* A growing list of exact lengths, bounded in memory however many rows are added. */
struct est_exact_list {
	struct est_exact *v;
	size_t nr, cap;
};

/* Adds @n calls at @len (>= CP_EXACT_LIMIT). 0 or -ENOMEM. */
int est_exact_add(struct est_exact_list *l, uint64_t len, double n);
/* Merges equal lengths, keeps the EST_MAX_EXACT with the most calls, sorts by length. */
void est_exact_finish(struct est_exact_list *l);
void est_exact_list_free(struct est_exact_list *l);

#endif
