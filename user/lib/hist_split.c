// SPDX-License-Identifier: GPL-2.0
/* hist_split.c: proportional shares of a histogram with exact row and column totals */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist_split.h"

int hist_split_init(struct hist_split *hs, const uint64_t *count, const uint64_t *bytes,
		    size_t nr_cols)
{
	size_t i;

	memset(hs, 0, sizeof(*hs));
	hs->count = calloc(nr_cols ?: 1, sizeof(*hs->count));
	hs->bytes = calloc(nr_cols ?: 1, sizeof(*hs->bytes));
	if (!hs->count || !hs->bytes) {
		hist_split_free(hs);
		return -ENOMEM;
	}
	hs->nr_cols = nr_cols;
	for (i = 0; i < nr_cols; i++) {
		hs->count[i] = count[i];
		hs->bytes[i] = bytes[i];
		hs->total += count[i];
	}
	return 0;
}

uint64_t hist_split_row(struct hist_split *hs, uint64_t row, uint64_t *count_out,
			uint64_t *bytes_out)
{
	unsigned __int128 prod;
	uint64_t given = 0, left, *rem;
	size_t i, best;

	if (row > hs->total)
		row = hs->total;
	rem = calloc(hs->nr_cols ?: 1, sizeof(*rem));
	/* Floors first: row * count / total <= count, as row <= total. */
	for (i = 0; i < hs->nr_cols; i++) {
		prod = (unsigned __int128)row * hs->count[i];
		count_out[i] = hs->total ? (uint64_t)(prod / hs->total) : 0;
		if (rem)
			rem[i] = hs->total ? (uint64_t)(prod % hs->total) : 0;
		given += count_out[i];
	}
	/*
	 * Then one more to each of the largest remainders (the first column on a tie): fewer
	 * than nr_cols are missing, and a column with a remainder has a count above its floor.
	 */
	for (left = row - given; left; left--) {
		for (best = 0, i = 1; rem && i < hs->nr_cols; i++)
			if (rem[i] > rem[best])
				best = i;
		if (!rem || !rem[best]) {
			/* No memory for remainders: fill in column order instead, still exact. */
			for (best = 0; best < hs->nr_cols && count_out[best] == hs->count[best];
			     best++)
				;
		} else {
			rem[best] = 0;
		}
		count_out[best]++;
	}
	free(rem);
	for (i = 0; i < hs->nr_cols; i++) {
		if (count_out[i] == hs->count[i])
			bytes_out[i] = hs->bytes[i];
		else
			bytes_out[i] = (uint64_t)((unsigned __int128)hs->bytes[i] * count_out[i] /
						  hs->count[i]);
		hs->count[i] -= count_out[i];
		hs->bytes[i] -= bytes_out[i];
	}
	hs->total -= row;
	return row;
}

void hist_split_free(struct hist_split *hs)
{
	free(hs->count);
	free(hs->bytes);
	memset(hs, 0, sizeof(*hs));
}
