// SPDX-License-Identifier: GPL-2.0
/* estimate_validation.c: --validate's verdict on the best threshold */
#include <math.h>
#include "estimate_validation.h"

int est_validation_best(const struct est_family_result *fr, double *gap_pp, bool *same)
{
	double tol = 100 * EST_FLAT_FRACTION;
	int best = -1;
	size_t i;

	*gap_pp = NAN;
	*same = false;
	if (!fr->measured_pct || fr->best < 0)
		return -1;
	for (i = 0; i < fr->nr_rows; i++) {
		double m = fr->measured_pct[i];

		if (fr->rows[i].pol.kind == EST_THRESHOLD && !isnan(m) &&
		    (best < 0 || m < fr->measured_pct[best]))
			best = (int)i;
	}
	if (best < 0)
		return -1;
	if (isfinite(fr->noise_floor_pct) && fr->noise_floor_pct > tol)
		tol = fr->noise_floor_pct;
	*gap_pp = fr->measured_pct[fr->best] - fr->measured_pct[best];
	*same = best == fr->best || *gap_pp <= tol;
	return best;
}
