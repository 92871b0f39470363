/* SPDX-License-Identifier: GPL-2.0 */
/* calib_runs.h: the runs of every point of a calibration, their median and its interval */
#ifndef CP_CALIB_RUNS_H
#define CP_CALIB_RUNS_H

#include <stddef.h>

/* Point k = curve i * nr_sizes + size j keeps its runs' TSC ticks a call at ticks[k * max]. */
struct calib_runs {
	double *ticks; /* [point][max_runs] */
	int *n;	       /* runs per point */
	int max;
	size_t nr_sizes, nr_points;
};

/* The median over point @k's runs (TSC ticks a call; NAN without runs). */
double calib_runs_median(const struct calib_runs *rs, size_t k);
/* Half-width of the point's 95% interval over its median (INFINITY: too few runs). */
double calib_runs_rel_ci(const struct calib_runs *rs, size_t k);

#endif
