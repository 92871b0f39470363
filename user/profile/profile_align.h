/* SPDX-License-Identifier: GPL-2.0 */
/* profile_align.h: a site's address alignments (calls by address % 64), its non-zero slots only */
#ifndef CP_PROFILE_ALIGN_H
#define CP_PROFILE_ALIGN_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/hist.h"

/* The calls whose destination and source address was @slot modulo 64. */
struct align_count {
	uint8_t slot; /* < CP_ALIGN_SLOTS */
	uint64_t dst, src;
};

/*
 * dst_align/src_align of docs/profile-format.md, by slot ascending, slots where both are 0
 * left out. @recorded: the recorder counted alignments (an all-zero site still has them).
 */
struct site_align {
	struct align_count *v;
	uint32_t nr;
	bool recorded;
};

/* Adds @dst and @src calls to @slot. 0 or -ENOMEM. */
int site_align_add(struct site_align *a, uint32_t slot, uint64_t dst, uint64_t src);
/* Fills @dst and @src (CP_ALIGN_SLOTS counts each). */
void site_align_dense(const struct site_align *a, uint64_t *dst, uint64_t *src);
/* Makes @a the non-zero slots of @dst and @src (CP_ALIGN_SLOTS each), recorded. 0 or -ENOMEM. */
int site_align_set_dense(struct site_align *a, const uint64_t *dst, const uint64_t *src);
/* Empties @a (not recorded) and keeps its memory. */
void site_align_clear(struct site_align *a);
void site_align_free(struct site_align *a);

#endif
