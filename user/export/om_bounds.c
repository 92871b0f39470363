// SPDX-License-Identifier: GPL-2.0
/* om_bounds.c: export's fixed histogram bounds, counts below them, which are listed, le as text */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include "om_bounds.h"

const uint64_t om_edges[OM_NR_EDGES] = {
	1,	    2,		4,	    8,		16,	    32,		64,
	128,	    256,	512,	    1024,	1536,	    2048,	4096,
	8192,	    1ULL << 14, 1ULL << 15, 1ULL << 16, 1ULL << 17, 1ULL << 18, 1ULL << 19,
	1ULL << 20, 1ULL << 21, 1ULL << 22, 1ULL << 23, 1ULL << 24, 1ULL << 25, 1ULL << 26,
	1ULL << 27, 1ULL << 28, 1ULL << 29, 1ULL << 30, 1ULL << 31, 1ULL << 32,
};

_Static_assert(OM_LIVE_NR_EDGES <= OM_NR_EDGES, "the agent's bounds are export's first ones");

static void cumulate(const struct hist_slot *buckets, uint64_t cum[OM_NR_EDGES], bool bytes)
{
	uint64_t below = 0;
	uint32_t b = 0;
	size_t i;

	/* Each edge starts a bucket, so "below the edge" is "in an earlier bucket". */
	for (i = 0; i < OM_NR_EDGES; i++) {
		for (; b < cp_bucket_of(om_edges[i]); b++)
			below += bytes ? buckets[b].bytes : buckets[b].count;
		cum[i] = below;
	}
}

void om_cumulate(const struct hist_slot *buckets, uint64_t cum[OM_NR_EDGES])
{
	cumulate(buckets, cum, false);
}

void om_cumulate_bytes(const struct hist_slot *buckets, uint64_t cum[OM_NR_EDGES])
{
	cumulate(buckets, cum, true);
}

void om_sparse_bounds(const struct hist_slot *buckets, bool listed[OM_NR_EDGES])
{
	/* Range i: lengths below om_edges[i] and from the edge before; OM_NR_EDGES: from 2^32. */
	bool filled[OM_NR_EDGES + 1] = { false }, before = false;
	uint32_t b;
	size_t i = 0;

	for (b = 0; b < CP_NBUCKETS; b++) {
		while (i < OM_NR_EDGES && b >= cp_bucket_of(om_edges[i]))
			i++;
		filled[i] |= buckets[b].count || buckets[b].bytes;
	}
	for (i = 0; i < OM_NR_EDGES; i++) {
		listed[i] = filled[i] || (before && filled[i + 1]);
		before |= filled[i];
	}
}

void om_format_le(char *buf, size_t size, uint64_t v)
{
	char digits[24];
	int len, last;

	len = snprintf(digits, sizeof(digits), "%" PRIu64, v);
	/* Go's shortest %g switches to an exponent at 1e+06 (exponent >= 6 digits' worth). */
	if (len <= 6) {
		snprintf(buf, size, "%s.0", digits);
		return;
	}
	for (last = len - 1; last > 0 && digits[last] == '0'; last--)
		;
	if (last)
		snprintf(buf, size, "%c.%.*se+%02d", digits[0], last, digits + 1, len - 1);
	else
		snprintf(buf, size, "%ce+%02d", digits[0], len - 1);
}
