// SPDX-License-Identifier: GPL-2.0
/* estimate_acc.c: every bucket of a family costed under each policy, summed */
#include <string.h>
#include "estimate_acc.h"

/*
 * Multiplexed breakpoints: besides the Poisson error of the raw counts (each scaled call
 * stands for 1/share calls), the workload's calls need not fall evenly over the rotation
 * windows. The relative error of a scaled count measured on a known-count workload
 * (docs/kernel-targets.md#multiplexed-breakpoints), taken as one standard error per site:
 * scaled by the reference site's calls, and scaled by time (the fallback).
 */
#define EST_MUX_REL_ERROR 0.07	    /* reference scaling: RMS over 14 sites, 6.12 and 6.1 */
#define EST_MUX_TIME_REL_ERROR 0.25 /* time scaling: RMS over 16 sites, 6.12 and 6.1 */

/* Adds a multiplexed site's scaling error: common to all its buckets, so per site. */
static void add_mux_error(struct est_acc *a, const double *site_total, size_t np, bool ref)
{
	double e = ref ? EST_MUX_REL_ERROR : EST_MUX_TIME_REL_ERROR, e2 = e * e, t = site_total[0];
	size_t p;

	for (p = 0; p < np; p++) {
		a->saa[p] += e2 * site_total[p] * site_total[p];
		a->sac[p] += e2 * site_total[p] * t;
	}
	a->scc += e2 * t * t;
}

void est_acc_run(const struct est_costs *c, const struct est_input *in, enum copy_family f,
		 const struct est_policy *pol, size_t np, const struct est_site *only,
		 struct est_acc *a, bool full)
{
	/* One site (the per-site rows) visits that site alone: linear in sites, not quadratic. */
	size_t i = only ? (size_t)(only - in->sites) : 0, end = only ? i + 1 : in->nr_sites, p;
	uint32_t k;

	memset(a, 0, sizeof(*a));
	for (; i < end; i++) {
		const struct est_site *s = &in->sites[i];

		double site_total[EST_MAX_POLICIES] = { 0 };
		double running = s->running > 0 && s->running < 1 ? s->running : 1;

		if (s->family != f)
			continue;
		for (k = 0; k < s->nr_buckets; k++) {
			uint32_t b = s->buckets[k].b;
			uint64_t lo = hist_bucket_lo(b), hi = hist_bucket_hi(b);
			double n = s->buckets[k].n, mean, per_unit, calls, today, bound;
			bool split = false;

			mean = s->buckets[k].bytes / n;
			/* Guard against tables whose bytes do not fit the bucket. */
			if (mean < (double)lo)
				mean = (double)lo;
			if (mean > (double)hi - 1)
				mean = (double)hi - 1;
			per_unit = est_calls_per_unit(c, in, s, mean);
			calls = n * per_unit;
			a->calls += calls;
			if (full) {
				a->bucket_calls[b] += calls;
				a->bucket_bytes[b] += calls * mean;
			}
			if (s->time_weighted)
				a->samples += n;
			if (c->max_size && mean > c->max_size)
				a->beyond += calls;
			today = est_cost_bucket(c, &pol[0], lo, hi, 1, mean, full ? &bound : NULL,
						&split);
			for (p = 0; p < np; p++) {
				double cost = p ? est_cost_bucket(c, &pol[p], lo, hi, 1, mean,
								  full ? &bound : NULL, &split)
						: today;

				a->total[p] += calls * cost;
				site_total[p] += calls * cost;
				if (!full)
					continue;
				a->bound[p] += calls * bound;
				/*
				 * Counting error: n is Poisson, each unit adds per_unit calls. A
				 * scaled count n stands for n * running raw ones: variance n / running.
				 */
				if (s->counted) {
					double ua = per_unit * cost, uc = per_unit * today;
					double vn = n / running;

					a->saa[p] += vn * ua * ua;
					a->sac[p] += vn * ua * uc;
					if (!p)
						a->scc += vn * uc * uc;
				}
			}
			a->split |= split;
		}
		if (full && s->counted && running < 1)
			add_mux_error(a, site_total, np, s->ref_scaled);
	}
}
