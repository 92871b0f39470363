// SPDX-License-Identifier: GPL-2.0
/* paired_run.c: what a paired measurement's rounds measured, and which rounds were quiet */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/median.h"
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

static size_t batch_of(const struct paired_run *run, size_t r)
{
	return run->batch && run->batch[r] < PAIRED_MAX_BATCHES ? run->batch[r] : 0;
}

void paired_run_bases(const struct paired_run *run, double base[PAIRED_MAX_BATCHES])
{
	double fastest = paired_run_fastest(run);
	size_t b, r;

	for (b = 0; b < PAIRED_MAX_BATCHES; b++)
		base[b] = INFINITY;
	for (r = 0; r < run->rounds; r++) {
		b = batch_of(run, r);
		if (run->ref[r] > 0 && run->ref[r] < base[b])
			base[b] = run->ref[r];
	}
	for (b = 0; b < PAIRED_MAX_BATCHES; b++)
		base[b] = fmin(base[b], (1 + PAIRED_PLACE_SPREAD) * fastest);
}

bool paired_run_quiet(const struct paired_run *run, size_t r, const double *base, double tol)
{
	return run->ref[r] <= (1 + tol) * base[batch_of(run, r)];
}

size_t paired_run_count_quiet(const struct paired_run *run, double tol)
{
	double base[PAIRED_MAX_BATCHES];
	size_t r, n = 0;

	paired_run_bases(run, base);
	for (r = 0; r < run->rounds; r++)
		n += paired_run_quiet(run, r, base, tol);
	return n;
}

/* The window that holds the PAIRED_MIN_QUIET rounds closest to their bases, or NAN. */
static double quietest_window(const struct paired_run *run)
{
	double *v = malloc(run->rounds * sizeof(*v)), base[PAIRED_MAX_BATCHES], w;
	size_t r;

	if (!v)
		return NAN;
	paired_run_bases(run, base);
	for (r = 0; r < run->rounds; r++)
		v[r] = run->ref[r] / base[batch_of(run, r)];
	w = median_kth(v, run->rounds, PAIRED_MIN_QUIET - 1) - 1;
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
	return paired_run_quiet_wanted(run) == 0;
}

size_t paired_run_quiet_wanted(const struct paired_run *run)
{
	size_t n = paired_run_count_quiet(run, quiet_ladder[0]);

	return n >= PAIRED_MIN_QUIET ? 0 : PAIRED_MIN_QUIET - n;
}

size_t paired_run_batch_quiet(const struct paired_run *run, size_t b)
{
	double base[PAIRED_MAX_BATCHES];
	size_t r, n = 0;

	paired_run_bases(run, base);
	for (r = 0; r < run->rounds; r++)
		n += batch_of(run, r) == b && paired_run_quiet(run, r, base, quiet_ladder[0]);
	return n;
}

size_t paired_run_quiet_set(const struct paired_run *run, bool *quiet)
{
	double base[PAIRED_MAX_BATCHES], tol = paired_run_tolerance(run);
	size_t r, n = 0;

	paired_run_bases(run, base);
	for (r = 0; r < run->rounds; r++) {
		quiet[r] = paired_run_quiet(run, r, base, tol);
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
