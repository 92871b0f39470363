/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_order.h: a family's recorded call order gathered for its replay, and how it was used */
#ifndef CP_ESTIMATE_ORDER_H
#define CP_ESTIMATE_ORDER_H

#include <stddef.h>
#include "estimate_family.h"

struct est_input;
struct est_family_result;
struct mixmeas;

/* The most runs a family's replay takes from its sites. */
#define EST_MAX_ORDER_RUNS 16

/*
 * Family @f's recorded runs of consecutive lengths (profile_order.h) over its sites, each
 * site's in turn, at most EST_MAX_ORDER_RUNS, into @r's order_runs and nr_order_runs (none:
 * the replay draws lengths independently). 0 or -ENOMEM.
 */
int est_order_collect(const struct est_input *in, enum copy_family f, struct est_family_result *r);

/*
 * The order the paired measurement @mm made its calls in, into @buf: "calls in recorded order:
 * 4 runs of 64 calls, each pass the runs in an order of its own" or "calls drawn independently
 * from the buckets". Returns @buf.
 */
const char *est_order_words(const struct mixmeas *mm, char *buf, size_t len);

#endif
