// SPDX-License-Identifier: GPL-2.0
/* paired_figure.c: one path's change against another over chosen rounds, with its interval */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "paired_figure.h"
#include "paired_stats.h"

int paired_figure(const struct paired_run *run, const bool *in, size_t p, size_t base,
		  uint64_t seed, struct mixmeas_figure *f)
{
	double *ratio = malloc((run->rounds ? run->rounds : 1) * sizeof(*ratio));
	uint8_t *batch = malloc(run->rounds ? run->rounds : 1);
	size_t r, n = 0;
	int err = 0;

	if (!ratio || !batch) {
		free(ratio);
		free(batch);
		return -ENOMEM;
	}
	for (r = 0; r < run->rounds; r++) {
		double a = run->ticks[r * run->nr_paths + p],
		       b = run->ticks[r * run->nr_paths + base];

		if (in[r] && a > 0 && b > 0) {
			batch[n] = run->batch[r];
			ratio[n++] = a / b;
		}
	}
	if (n < MIXMEAS_MIN_ROUNDS || p == base)
		f->delta_pct = f->ci_low = f->ci_high = p == base && n ? 0 : NAN;
	else
		err = paired_median_ci(ratio, batch, run->nr_batches, n,
				       seed + 0x9e3779b97f4a7c15ULL * (p + 1), &f->delta_pct,
				       &f->ci_low, &f->ci_high);
	free(ratio);
	free(batch);
	return err;
}
