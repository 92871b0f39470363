// SPDX-License-Identifier: GPL-2.0
/* paired_run.c: what a paired measurement's rounds measured, and which rounds were quiet */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "costmodel/mixmeas.h"
#include "paired_run.h"
#include "paired_stats.h"

double paired_run_fastest(const struct paired_run *run)
{
	double best = INFINITY;
	size_t r;

	for (r = 0; r < run->rounds; r++)
		if (run->ref[r] > 0 && run->ref[r] < best)
			best = run->ref[r];
	return best;
}

/* The quiet stratum's windows, tightest first (costmodel/mixmeas.h). */
static const double quiet_ladder[] = MIXMEAS_QUIET_LADDER;

bool paired_run_quiet(const struct paired_run *run, size_t r, double fastest, double tol)
{
	return run->ref[r] <= (1 + tol) * fastest;
}

size_t paired_run_count_quiet(const struct paired_run *run, double tol)
{
	double fastest = paired_run_fastest(run);
	size_t r, n = 0;

	for (r = 0; r < run->rounds; r++)
		n += paired_run_quiet(run, r, fastest, tol);
	return n;
}

/* The window that holds the PAIRED_MIN_QUIET rounds of fastest reference, or NAN. */
static double quietest_window(const struct paired_run *run)
{
	double *v = malloc(run->rounds * sizeof(*v)), fastest = paired_run_fastest(run), w;

	if (!v)
		return NAN;
	memcpy(v, run->ref, run->rounds * sizeof(*v));
	w = paired_kth(v, run->rounds, PAIRED_MIN_QUIET - 1);
	w = isfinite(fastest) ? w / fastest - 1 : NAN;
	free(v);
	return w;
}

double paired_run_tolerance(const struct paired_run *run)
{
	size_t i, n = sizeof(quiet_ladder) / sizeof(quiet_ladder[0]);
	double w;

	for (i = 0; i < n; i++)
		if (paired_run_count_quiet(run, quiet_ladder[i]) >= PAIRED_MIN_QUIET)
			return quiet_ladder[i];
	w = run->rounds >= PAIRED_MIN_QUIET ? quietest_window(run) : NAN;
	return isfinite(w) && w > quiet_ladder[n - 1] ? w : quiet_ladder[n - 1];
}

bool paired_run_enough_quiet(const struct paired_run *run)
{
	return paired_run_count_quiet(run, quiet_ladder[0]) >= PAIRED_MIN_QUIET;
}

size_t paired_run_quiet_set(const struct paired_run *run, bool *quiet)
{
	double fastest = paired_run_fastest(run), tol = paired_run_tolerance(run);
	size_t r, n = 0;

	for (r = 0; r < run->rounds; r++) {
		quiet[r] = paired_run_quiet(run, r, fastest, tol);
		n += quiet[r];
	}
	return n;
}

void paired_run_free(struct paired_run *run)
{
	free(run->ticks);
	free(run->ref);
	free(run->batch);
	memset(run, 0, sizeof(*run));
}

int paired_run_grow(struct paired_run *run)
{
	size_t cap = run->cap ? 2 * run->cap : 256;
	double *t = realloc(run->ticks, cap * run->nr_paths * sizeof(*t));
	uint8_t *b;
	double *r;

	if (!t)
		return -ENOMEM;
	run->ticks = t;
	r = realloc(run->ref, cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	run->ref = r;
	b = realloc(run->batch, cap * sizeof(*b));
	if (!b)
		return -ENOMEM;
	run->batch = b;
	run->cap = cap;
	return 0;
}

size_t paired_run_placements(const struct paired_run *run)
{
	size_t b, c, n = 0;

	for (b = 0; b < run->nr_batches; b++) {
		for (c = 0; c < b && run->batch_code[c] != run->batch_code[b]; c++)
			;
		n += c == b;
	}
	return n;
}
