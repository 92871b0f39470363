/* SPDX-License-Identifier: GPL-2.0 */
/* om_bounds.h: the classic histograms' fixed bounds (export and agent), and how le is written */
#ifndef CP_OM_BOUNDS_H
#define CP_OM_BOUNDS_H

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

/* cum[i]: calls (or samples) of @buckets whose length is below om_edges[i]. */
void om_cumulate(const struct hist_slot *buckets, uint64_t cum[OM_NR_EDGES]);
/* The same over bytes: the bytes of the calls below each edge (the byte-weighted twin). */
void om_cumulate_bytes(const struct hist_slot *buckets, uint64_t cum[OM_NR_EDGES]);
/*
 * @v as a canonical OpenMetrics number, as Go's %g renders a float64 with ".0" added when
 * there is neither a point nor an exponent: 0.0, 4095.0, 1.048575e+06. @v below 2^53.
 */
void om_format_le(char *buf, size_t size, uint64_t v);

#endif
