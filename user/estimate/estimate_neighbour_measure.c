// SPDX-License-Identifier: GPL-2.0
/* estimate_neighbour_measure.c: the neighbour correction measured: each policy, two orders */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_mix_measure.h"
#include "estimate_neighbour_measure.h"
#include "estimate_result.h"
#include "lib/log.h"
#include "replay.h"

static int alloc_rows(struct est_neighbour *nb, size_t n)
{
	nb->nr_rows = n;
	nb->shuffled_ns = malloc(n * sizeof(double));
	nb->sorted_ns = malloc(n * sizeof(double));
	nb->order_ns = malloc(n * sizeof(double));
	nb->residual_ns = malloc(n * sizeof(double));
	if (nb->shuffled_ns && nb->sorted_ns && nb->order_ns && nb->residual_ns)
		return 0;
	est_neighbour_free(nb);
	return -ENOMEM;
}

int est_neighbour_measure(const struct est_family_result *fr, const double *pure_ns,
			  const double *mixed_ns, const struct costmodel *m,
			  const struct est_cache *cache, size_t calls, struct est_neighbour *nb)
{
	struct replay_opts ro = { cache, m->cpu, calls, EST_MIX_RUNS, EST_NB_SEED };
	size_t i;
	int err, cpu = -1;

	memset(nb, 0, sizeof(*nb));
	if (fr->calls <= 0) {
		est_neighbour_skip(nb, "no calls");
		return 0;
	}
	err = alloc_rows(nb, fr->nr_rows);
	if (err)
		return err;
	err = replay_orders(fr, &ro, nb->shuffled_ns, nb->sorted_ns, &cpu);
	if (err == -ENOENT) {
		est_neighbour_free(nb);
		est_neighbour_skip(nb, "no calls to replay");
		return 0;
	}
	if (err) {
		est_neighbour_free(nb);
		return err;
	}
	nb->applied = true;
	nb->calls = ro.max_calls;
	nb->runs = ro.runs;
	nb->cpu = cpu;
	/*
	 * The replay's speed against the cost model's, from today's row (the reference of every
	 * change): a machine slower or faster than at calibration scales both orders, so the order
	 * penalties are taken back to the model's units. Mispredictions add time: the penalty is
	 * added, not scaled with each row's cost.
	 */
	nb->speed = pure_ns[0] > 0 && nb->sorted_ns[0] > 0
			    ? nb->sorted_ns[0] / (pure_ns[0] / fr->calls)
			    : 1;
	for (i = 0; i < fr->nr_rows; i++) {
		bool ok = isfinite(nb->shuffled_ns[i]) && isfinite(nb->sorted_ns[i]) &&
			  nb->shuffled_ns[i] > 0 && nb->sorted_ns[i] > 0;

		nb->order_ns[i] = ok ? nb->shuffled_ns[i] - nb->sorted_ns[i] : NAN;
		nb->residual_ns[i] =
			ok ? nb->order_ns[i] / nb->speed - (mixed_ns[i] - pure_ns[i]) / fr->calls
			   : NAN;
		p_debug("neighbour correction: %s %s: %.2f ns/call shuffled, %.2f sorted, mix "
			"correction %+.2f: %+.2f ns",
			est_family(fr->family)->name, fr->rows[i].pol.name, nb->shuffled_ns[i],
			nb->sorted_ns[i], (mixed_ns[i] - pure_ns[i]) / fr->calls,
			nb->residual_ns[i]);
	}
	return 0;
}
