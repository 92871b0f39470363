// SPDX-License-Identifier: GPL-2.0
/* calib_runs.c: the runs of every point of a calibration, their median and its interval */
#include <math.h>
#include <string.h>
#include "calib_runs.h"
#include "calib_stats.h"
#include "lib/median.h"

double calib_runs_median(const struct calib_runs *rs, size_t k)
{
	double w[1024];
	int n = rs->n[k] < 1024 ? rs->n[k] : 1024;

	memcpy(w, &rs->ticks[k * (size_t)rs->max], (size_t)n * sizeof(*w));
	return median_sorted(w, (size_t)n);
}

double calib_runs_rel_ci(const struct calib_runs *rs, size_t k)
{
	double med = calib_runs_median(rs, k);

	return med > 0 ? calib_median_ci(&rs->ticks[k * (size_t)rs->max], (size_t)rs->n[k]) / med
		       : INFINITY;
}
