/* SPDX-License-Identifier: GPL-2.0 */
/* profile_match.h: the sites of two profiles paired by what they are, never by address */
#ifndef CP_PROFILE_MATCH_H
#define CP_PROFILE_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

enum profile_match_kind {
	MATCH_EXACT,	/* same target, symbol, offset, label (and leaf, for sampled sites) */
	MATCH_SYMBOL,	/* same target, symbol, label, leaf; the offset moved (another build) */
	MATCH_VANISHED, /* in BEFORE only */
	MATCH_APPEARED, /* in AFTER only */
};

/*
 * One site of the comparison: the sites of each profile with its key (several when a merged
 * profile has it in more than one group: they are summed).
 */
struct profile_match_row {
	enum profile_match_kind kind;
	const char *target, *symbol, *label, *leaf; /* borrowed from the profiles */
	uint64_t offset[2];			    /* BEFORE's, AFTER's (when present) */
	size_t *sites[2];			    /* indexes into each profile's sites */
	size_t nr[2];
};

/* "exact", "symbol", "vanished", "appeared". */
const char *profile_match_kind_name(enum profile_match_kind k);

/*
 * Pairs @a's (BEFORE) and @b's (AFTER) sites. A key is (target, symbol, offset, label, leaf):
 * equal keys are one row (MATCH_EXACT). Of what is left, the sites of one (target, symbol,
 * label, leaf) are paired in offset order when both sides have the same number of them
 * (MATCH_SYMBOL: the function's code moved, as between two kernels); the rest are vanished or
 * appeared. Rows come in the order target, symbol, offset (AFTER's, else BEFORE's).
 * 0 or -ENOMEM.
 */
int profile_match(const struct profile *a, const struct profile *b, struct profile_match_row **rows,
		  size_t *nr);
void profile_match_free(struct profile_match_row *rows, size_t nr);

#endif
