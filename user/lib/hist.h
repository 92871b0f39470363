/* SPDX-License-Identifier: GPL-2.0 */
/* hist.h: length buckets (edges, lookup) on top of the shared bucketing in cp_shared.h */
#ifndef CP_HIST_H
#define CP_HIST_H

#include <stdint.h>
#include <linux/types.h>
#include "cp_shared.h"

/* Inclusive lower edge of bucket @b. */
uint64_t hist_bucket_lo(uint32_t b);
/* Exclusive upper edge of bucket @b (UINT64_MAX for the overflow bucket). */
uint64_t hist_bucket_hi(uint32_t b);
/* Bucket whose range is exactly [lo, hi), or -1 if no bucket has those edges. */
int hist_bucket_find(uint64_t lo, uint64_t hi);

#endif
