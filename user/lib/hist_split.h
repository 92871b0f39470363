/* SPDX-License-Identifier: GPL-2.0 */
/* hist_split.h: share a histogram out over parts of known size, keeping every total exact */
#ifndef CP_HIST_SPLIT_H
#define CP_HIST_SPLIT_H

#include <stddef.h>
#include <stdint.h>

/*
 * A sampled site knows its length histogram and its stacks' sample counts, but not the lengths
 * per stack. hist_split gives each stack (a row) a share of every bucket (a column) in
 * proportion to the columns still left, rounding by largest remainder, so that the rows'
 * shares add up to each column exactly and each row gets exactly its count; the last row
 * takes what is left. Bytes follow counts in proportion, the last share of a column taking
 * the rest, so they add up exactly too.
 */
struct hist_split {
	size_t nr_cols;
	uint64_t *count; /* per column: counts not yet given out */
	uint64_t *bytes; /* ... and their bytes */
	uint64_t total;	 /* sum of count[] */
};

/* Starts from @nr_cols columns (copied). Returns 0 or -ENOMEM. */
int hist_split_init(struct hist_split *hs, const uint64_t *count, const uint64_t *bytes,
		    size_t nr_cols);
/*
 * Gives a row of @row counts (capped at what is left) its share: @count_out and @bytes_out
 * get nr_cols entries. Returns the row's count as given out.
 */
uint64_t hist_split_row(struct hist_split *hs, uint64_t row, uint64_t *count_out,
			uint64_t *bytes_out);
void hist_split_free(struct hist_split *hs);

#endif
