// SPDX-License-Identifier: GPL-2.0
/* hist.c: bucket edges; the lookup itself is cp_bucket_of() in cp_shared.h */
#include "hist.h"

uint64_t hist_bucket_lo(uint32_t b)
{
	uint32_t m, sub;

	if (b < CP_EXACT_LIMIT)
		return b;
	if (b >= CP_OVERFLOW_BUCKET)
		return 1ULL << CP_MAX_LOG2;
	m = 6 + (b - CP_EXACT_LIMIT) / CP_SUBS;
	sub = (b - CP_EXACT_LIMIT) % CP_SUBS;
	return (uint64_t)(CP_SUBS + sub) << (m - CP_SUB_BITS);
}

uint64_t hist_bucket_hi(uint32_t b)
{
	if (b >= CP_OVERFLOW_BUCKET)
		return UINT64_MAX;
	return hist_bucket_lo(b + 1);
}

int hist_bucket_find(uint64_t lo, uint64_t hi)
{
	uint32_t b = cp_bucket_of(lo);

	if (hist_bucket_lo(b) != lo || hist_bucket_hi(b) != hi)
		return -1;
	return (int)b;
}
