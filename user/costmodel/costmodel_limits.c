// SPDX-License-Identifier: GPL-2.0
/* costmodel_limits.c: the floor measured limits set a point, and why a point is below it */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include "costmodel_limits.h"

static bool positive(double v)
{
	return v > 0 && isfinite(v);
}

bool costmodel_limits_known(const struct costmodel_limits *l)
{
	return l && positive(l->store_bytes_per_ns) && positive(l->copy_bytes_per_ns) &&
	       positive(l->call_ns) && l->margin >= 0 && l->margin < 1;
}

/* The least a call takes on the machine of @l, whatever it does. */
static double call_floor_ns(const struct costmodel_limits *l)
{
	return l->call_ns * COSTMODEL_LIMITS_CALL_SHARE;
}

double costmodel_limits_floor_ns(const struct costmodel_limits *l, uint64_t size, bool copies)
{
	double rate, by_rate, by_call;

	if (!costmodel_limits_known(l))
		return 0;
	rate = copies ? l->copy_bytes_per_ns : l->store_bytes_per_ns;
	by_rate = (double)size / (rate * (1 + l->margin));
	by_call = call_floor_ns(l);
	return by_rate > by_call ? by_rate : by_call;
}

int costmodel_limits_check(const struct costmodel_limits *l, uint64_t size, double ns, bool copies,
			   char *why, size_t len)
{
	double rate, floor_ns;

	if (!(ns > 0) || !isfinite(ns)) {
		snprintf(why, len, "%llu B at %g ns: not a time a call can take",
			 (unsigned long long)size, ns);
		return -ERANGE;
	}
	floor_ns = costmodel_limits_floor_ns(l, size, copies);
	if (ns >= floor_ns)
		return 0;
	rate = copies ? l->copy_bytes_per_ns : l->store_bytes_per_ns;
	if ((double)size / (rate * (1 + l->margin)) >= call_floor_ns(l))
		snprintf(why, len,
			 "%llu B at %.3f ns (%.0f B/ns) is beyond the measured %s ceiling of %.1f "
			 "B/ns (%s loop) by more than %.0f%%",
			 (unsigned long long)size, ns, (double)size / ns, copies ? "copy" : "store",
			 rate, copies ? l->copy_loop : l->store_loop, 100 * l->margin);
	else
		snprintf(why, len,
			 "%llu B at %.3f ns is below %.0f%% of the measured cost of an empty call "
			 "(%.3f ns)",
			 (unsigned long long)size, ns, 100 * COSTMODEL_LIMITS_CALL_SHARE,
			 l->call_ns);
	return -ERANGE;
}

const char *costmodel_limits_describe(const struct costmodel_limits *l, char *buf, size_t len)
{
	if (!costmodel_limits_known(l))
		snprintf(buf, len, "not measured");
	else
		snprintf(buf, len,
			 "store %.1f B/ns (%s), copy %.1f B/ns (%s), %.2f ns a call, "
			 "margin %.0f%%",
			 l->store_bytes_per_ns, l->store_loop, l->copy_bytes_per_ns, l->copy_loop,
			 l->call_ns, 100 * l->margin);
	return buf;
}
