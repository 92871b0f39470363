/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_lengths.h: a family's exact lengths gathered for its replay, and how they were drawn */
#ifndef CP_ESTIMATE_LENGTHS_H
#define CP_ESTIMATE_LENGTHS_H

#include <stddef.h>
#include "estimate_family.h"

struct est_costs;
struct est_input;
struct est_family_result;
struct mixmeas;

/*
 * Family @f's exact lengths over its sites, as calls (a time-weighted site's samples converted
 * as its bucket's), into @r's exact and nr_exact. 0 or -ENOMEM.
 */
int est_exact_collect(const struct est_costs *c, const struct est_input *in, enum copy_family f,
		      struct est_family_result *r);

/* The share of @r's calls a replay draws at their own lengths: below 64 B and listed exact. */
double est_exact_share(const struct est_family_result *r);

/*
 * How the paired measurement @mm drew its lengths, into @buf: "lengths exact for 41.2% of
 * calls (below 64 B and the input's exact lengths), uniform within their buckets around each
 * bucket's mean for the rest" (older measurements: "lengths exact below 64 B and from 64 B uniform around each bucket's
 * recorded mean within the bucket"). Returns @buf.
 */
const char *est_lengths_words(const struct mixmeas *mm, char *buf, size_t len);

#endif
