// SPDX-License-Identifier: GPL-2.0
/* estimate_acc.c: every bucket of a family costed under each policy, summed */
#include <string.h>
#include "estimate_acc.h"

void est_acc_run(const struct est_costs *c, const struct est_input *in, enum est_family f,
		 const struct est_policy *pol, size_t np, const struct est_site *only,
		 struct est_acc *a, bool full)
{
	/* One site (the per-site rows) visits that site alone: linear in sites, not quadratic. */
	size_t i = only ? (size_t)(only - in->sites) : 0, end = only ? i + 1 : in->nr_sites, p;
	int b;

	memset(a, 0, sizeof(*a));
	for (; i < end; i++) {
		const struct est_site *s = &in->sites[i];

		if (s->family != f)
			continue;
		for (b = 0; b < CP_NBUCKETS; b++) {
			uint64_t lo = hist_bucket_lo(b), hi = hist_bucket_hi(b);
			double n = s->n[b], mean, per_unit, calls, today, bound;
			bool split = false;

			if (n <= 0)
				continue;
			mean = s->bytes[b] / n;
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
			today = est_cost_bucket(c, &pol[0], lo, hi, 1, mean, &bound, &split);
			for (p = 0; p < np; p++) {
				double cost = p ? est_cost_bucket(c, &pol[p], lo, hi, 1, mean,
								  &bound, &split)
						: today;

				a->total[p] += calls * cost;
				if (!full)
					continue;
				a->bound[p] += calls * bound;
				/* Counting error: n is Poisson, each unit adds per_unit calls. */
				if (s->counted) {
					double ua = per_unit * cost, uc = per_unit * today;

					a->saa[p] += n * ua * ua;
					a->sac[p] += n * ua * uc;
					if (!p)
						a->scc += n * uc * uc;
				}
			}
			a->split |= split;
		}
	}
}
