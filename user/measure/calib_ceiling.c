// SPDX-License-Identifier: GPL-2.0
/* calib_ceiling.c: this machine's best store and copy rates and its cheapest call, measured */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "asmref_ceiling.h"
#include "calib_ceiling.h"
#include "calib_measure.h"
#include "lib/log.h"

/*
 * Lengths the loops run on: both L1-resident on any x86-64 core (a copy of 8 KiB touches 16 KiB,
 * half the smallest L1D in use), long enough that the call costs a few percent of the run.
 * The faster of the two counts: a length that spilled would only be the slower one.
 */
static const size_t lengths[] = { 4096, 8192 };
#define MAX_LENGTH 8192
/* Batches in one short run; their median is the run's figure, as for a warm point. */
#define SAMPLES 5

/* The fewest TSC ticks a call of @impl on @n bytes took over CALIB_CEILING_RUNS runs. */
static int best_ticks(const struct calib_timer *t, const struct asmref_impl *impl,
		      struct calib_bufs *b, size_t n, const struct calib_sampling *s, double *best)
{
	double ticks;
	int r, err;

	*best = INFINITY;
	for (r = 0; r < CALIB_CEILING_RUNS; r++) {
		err = calib_measure(t, impl, COSTMODEL_WARM, b, n, s, &ticks);
		if (err)
			return err;
		if (ticks > 0 && ticks < *best)
			*best = ticks;
	}
	return 0;
}

int calib_ceiling_measure(const struct calib_timer *t, double batch_ticks,
			  struct costmodel_limits *lim)
{
	struct calib_sampling s = { .samples = SAMPLES,
				    .flushed_samples = SAMPLES,
				    .batch_ticks = batch_ticks };
	double to_ns = 1e9 / t->tsc_hz, ticks;
	const struct asmref_ceiling_loop *l;
	struct calib_bufs b;
	size_t i, j;
	int err;

	err = calib_bufs_alloc(&b, MAX_LENGTH, 0, 0);
	if (err)
		return err;
	for (i = 0; !err && (l = asmref_ceiling_get(i)); i++) {
		double *rate = l->copies ? &lim->copy_bytes_per_ns : &lim->store_bytes_per_ns;
		char *name = l->copies ? lim->copy_loop : lim->store_loop;

		if (!asmref_usable(l->impl))
			continue;
		for (j = 0; !err && j < sizeof(lengths) / sizeof(*lengths); j++) {
			long bad;

			/* A loop that wrote less would set too high a ceiling: its bytes first. */
			if (calib_verify(l->impl, &b, lengths[j], &bad)) {
				p_err("the %s %s loop of the limits wrote wrong bytes for %zu "
				      "bytes "
				      "(first at offset %ld): not timing it",
				      l->copies ? "copy" : "store", l->loop, lengths[j], bad);
				err = -EIO;
				break;
			}
			err = best_ticks(t, l->impl, &b, lengths[j], &s, &ticks);
			if (err || !isfinite(ticks))
				continue;
			p_debug("limits: %s %s loop, %zu B: %.1f B/ns",
				l->copies ? "copy" : "store", l->loop, lengths[j],
				(double)lengths[j] / (ticks * to_ns));
			if ((double)lengths[j] / (ticks * to_ns) <= *rate)
				continue;
			*rate = (double)lengths[j] / (ticks * to_ns);
			snprintf(name, sizeof(lim->store_loop), "%s", l->loop);
		}
	}
	if (!err)
		err = best_ticks(t, asmref_ceiling_empty(), &b, 0, &s, &ticks);
	if (!err && isfinite(ticks)) {
		p_debug("limits: an empty call, %.3f ns", ticks * to_ns);
		if (!(lim->call_ns > 0) || ticks * to_ns < lim->call_ns)
			lim->call_ns = ticks * to_ns;
	}
	lim->margin = COSTMODEL_LIMITS_MARGIN;
	calib_bufs_free(&b);
	return err;
}
