/* SPDX-License-Identifier: GPL-2.0 */
/* costmodel_limits.h: what this machine can do at best, measured, and the floor it sets a point */
#ifndef CP_COSTMODEL_LIMITS_H
#define CP_COSTMODEL_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * How far a point may beat the measured limits and still be taken as measured: 25%. The
 * limits are the best of a few short runs at a few moments of the session, the points medians
 * over other moments, and the core's speed moves between them: on the Xeon VM this was
 * chosen on (2 vCPUs, load average 8-20 from other work), six sessions measured their store
 * ceiling at 232-254 B/ns, and the fastest points reached the ceiling of their own session
 * (within 0.3%) but no further. A quarter covers that spread twice over; a point faster still
 * is not a measurement of this machine's copies (docs/calibrate.md#measured-limits).
 */
#define COSTMODEL_LIMITS_MARGIN 0.25

/*
 * The least share of an empty call a call may take: half. An empty call (mov; ret) is not the
 * cheapest call on every core: on Zen 3 a call that clears 8 B took 1.87 ns through the same
 * loop where every empty call took 2.75-2.77 ns (0.68 of it; four copies of the empty call at
 * other addresses alike), a CI run refused it at the margin's 0.75, and the same two
 * instructions took 1.5x as long at some addresses as at others in a loop of their own. A
 * broken timer is off by far more (0, negative, 10x).
 */
#define COSTMODEL_LIMITS_CALL_SHARE 0.5

/*
 * The limits calibrate measured in its session (docs/calibrate.md#measured-limits), as the cost
 * model records them ("limits", docs/costmodel-format.md). store_bytes_per_ns 0: not measured
 * (a model written before limits were measured, or from published figures).
 */
struct costmodel_limits {
	double store_bytes_per_ns; /* best L1-resident store-only loop */
	char store_loop[16];	   /* which one: "avx512", "avx2", "sse2", "rep_stosb" */
	double copy_bytes_per_ns;  /* best L1-resident copy loop (bytes copied per ns) */
	char copy_loop[16];	   /* "avx512", "avx2", "sse2", "rep_movsb" */
	double call_ns;		   /* an empty call through calibrate's timed loop */
	double margin;		   /* COSTMODEL_LIMITS_MARGIN when measured */
};

/* Whether @l holds measured limits (every figure positive and finite). */
bool costmodel_limits_known(const struct costmodel_limits *l);

/*
 * The least a call of @size bytes can take on the machine of @l: max(size / (rate * (1 +
 * margin)), call_ns * COSTMODEL_LIMITS_CALL_SHARE), rate the copy limit for a copy (@copies),
 * else the store limit. 0 when @l is not known: nothing is below it.
 */
double costmodel_limits_floor_ns(const struct costmodel_limits *l, uint64_t size, bool copies);

/*
 * Why a point of @size bytes at @ns cannot be on the machine of @l, or 0 if it can: @why gets
 * the point, its rate and the limit it beats, e.g. "2048 B at 3.00 ns (683 B/ns) is beyond
 * the store ceiling of 520 B/ns (avx512 loop) by more than 25%". A NaN or non-positive @ns
 * can never be. Returns 0 or -ERANGE.
 */
int costmodel_limits_check(const struct costmodel_limits *l, uint64_t size, double ns, bool copies,
			   char *why, size_t len);

/* "store 262.1 B/ns (avx512), copy 130.4 B/ns (rep_movsb), 0.52 ns a call, margin 25%". */
const char *costmodel_limits_describe(const struct costmodel_limits *l, char *buf, size_t len);

#endif
