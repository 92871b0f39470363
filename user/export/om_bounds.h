/* SPDX-License-Identifier: GPL-2.0 */
/* om_bounds.h: the classic histograms' fixed bounds (export and agent), which a histogram lists, le */
#ifndef CP_OM_BOUNDS_H
#define CP_OM_BOUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/hist.h"

/*
 * The histograms' upper bounds: every power of two from 1 to 2^32 and 1536 (the seeds'
 * thresholds 32 ... 8192 among them), all edges of copyprof's buckets. A count is exact for
 * lengths *below* an edge, so the bound is written as le = edge - 1 (lengths are whole
 * bytes). Longer copies (the kernel caps one read or write at 2 GiB) are in +Inf only.
 */
#define OM_NR_EDGES 34
extern const uint64_t om_edges[OM_NR_EDGES];
/*
 * The agent's classic histograms stop at the first OM_LIVE_NR_EDGES edges, 1 to 64 KiB with
 * 1536 (le="65535.0" the last before +Inf): the fixed coarse set a fleet sums by le, exact at
 * every power of two up to 64 KiB; longer copies are in +Inf, where a reader has their calls
 * and (from the bytes twin) their mean length. Native histograms keep every power of two.
 * docs/fleet.md#bounds says why.
 */
#define OM_LIVE_NR_EDGES 18

/* cum[i]: calls (or samples) of @buckets whose length is below om_edges[i]. */
void om_cumulate(const struct hist_slot *buckets, uint64_t cum[OM_NR_EDGES]);
/* The same over bytes: the bytes of the calls below each edge (the byte-weighted twin). */
void om_cumulate_bytes(const struct hist_slot *buckets, uint64_t cum[OM_NR_EDGES]);
/*
 * The bounds a sparse histogram lists (docs/export.md#buckets), of the ranges the edges make
 * (lengths from one edge up to the next; the last from 2^32 on, in +Inf only): the upper
 * bound of every range with calls or bytes in @buckets, and the bound just below every run
 * of such ranges but the first (whose bound below, 0, no histogram lists: nothing is below
 * its first bound). Between two listed bounds the ranges are empty, so a bound left out has
 * the value of the nearest listed one below it, 0 below the first: nothing is lost, and each
 * non-empty range keeps both its bounds, as in the dense listing.
 */
void om_sparse_bounds(const struct hist_slot *buckets, bool listed[OM_NR_EDGES]);
/*
 * @v as a canonical OpenMetrics number, as Go's %g renders a float64 with ".0" added when
 * there is neither a point nor an exponent: 0.0, 4095.0, 1.048575e+06. @v below 2^53.
 */
void om_format_le(char *buf, size_t size, uint64_t v);

#endif
