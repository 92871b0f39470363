// SPDX-License-Identifier: GPL-2.0
/* mixmeas_pool.c: several sittings of one mix's paired measurement, taken as one answer */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/median.h"
#include "mixmeas_pool.h"

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

const char *mixmeas_why_apart(const struct mixmeas *a, const struct mixmeas *b)
{
	size_t i;

	if (!same_str(a->family, b->family) || !same_str(a->digest, b->digest) ||
	    !same_str(a->site, b->site) || !same_str(a->today, b->today) ||
	    !same_str(a->weight, b->weight))
		return "another mix, today's code or weighting";
	if (!same_str(a->alignment, b->alignment) || !same_str(a->distance, b->distance) ||
	    a->chunk_calls != b->chunk_calls || a->warmup_calls != b->warmup_calls)
		return "other conditions";
	if (a->protocol.version != b->protocol.version)
		return "another version of the measurement protocol";
	if (!measure_protocol_same(&a->protocol, &b->protocol))
		return "other constants of the measurement protocol";
	if (a->nr_rows != b->nr_rows)
		return "other policies";
	for (i = 0; i < a->nr_rows; i++)
		if (!mixmeas_row_find(b, &a->rows[i].key))
			return "other policies";
	/* Last: everything else alike, the two are cells of one matrix (never pooled). */
	if (!mixmeas_same_condition(a, b))
		return MIXMEAS_OTHER_CELL;
	return NULL;
}

bool mixmeas_same_condition(const struct mixmeas *a, const struct mixmeas *b)
{
	return same_str(a->cache, b->cache) && a->ws_bytes == b->ws_bytes &&
	       a->cold_bytes == b->cold_bytes;
}

bool mixmeas_other_cell(const struct mixmeas *a, const struct mixmeas *b)
{
	const char *why = mixmeas_why_apart(a, b);

	return why && !strcmp(why, MIXMEAS_OTHER_CELL);
}

bool mixmeas_same_measurement(const struct mixmeas *a, const struct mixmeas *b)
{
	return !mixmeas_why_apart(a, b);
}

/* The median of the finite values of @v[0..n) (reordered in place), or NAN. */
static double median_of(double *v, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	return median_sorted(v, k);
}

/* @f[0..n) pooled: the median change, the interval from the lowest low to the highest high. */
static struct mixmeas_figure pool_figures(const struct mixmeas_figure *f, size_t n, double *tmp)
{
	struct mixmeas_figure out = { NAN, NAN, NAN };
	size_t i;

	for (i = 0; i < n; i++) {
		tmp[i] = f[i].delta_pct;
		if (!isfinite(f[i].delta_pct))
			return out; /* a sitting without this figure: none pooled */
	}
	out.delta_pct = median_of(tmp, n);
	out.ci_low = f[0].ci_low;
	out.ci_high = f[0].ci_high;
	for (i = 1; i < n; i++) {
		out.ci_low = fmin(out.ci_low, f[i].ci_low);
		out.ci_high = fmax(out.ci_high, f[i].ci_high);
	}
	return out;
}

static char *dup_or_null(const char *s, int *err)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		*err = -ENOMEM;
	return d;
}

/* The newest sitting's strings and conditions; the sums of what adds up. */
static int pool_head(const struct mixmeas *const *s, size_t n, struct mixmeas *out)
{
	const struct mixmeas *last = s[n - 1];
	int err = 0;
	size_t i;

	out->family = dup_or_null(last->family, &err);
	out->digest = dup_or_null(last->digest, &err);
	out->site = dup_or_null(last->site, &err);
	out->input = dup_or_null(last->input, &err);
	out->today = dup_or_null(last->today, &err);
	out->weight = dup_or_null(last->weight, &err);
	out->calls_note = dup_or_null(last->calls_note, &err);
	out->cache = dup_or_null(last->cache, &err);
	out->alignment = dup_or_null(last->alignment, &err);
	out->distance = dup_or_null(last->distance, &err);
	out->ws_bytes = last->ws_bytes;
	out->exact_pct = last->exact_pct;
	out->order_runs = last->order_runs;
	out->order_calls = last->order_calls;
	out->cold_bytes = last->cold_bytes;
	out->chunk_calls = last->chunk_calls;
	out->warmup_calls = last->warmup_calls;
	out->protocol = last->protocol;
	out->cpu = last->cpu;
	out->seed = last->seed;
	out->budget_s = last->budget_s;
	out->when = last->when;
	out->first_when = s[0]->when;
	out->same_code_gap_pct = NAN;
	for (i = 0; i < n; i++) {
		out->batches += s[i]->batches;
		out->code_places += s[i]->code_places;
		out->time_s += s[i]->time_s;
		out->rounds += s[i]->rounds;
		out->quiet_rounds += s[i]->quiet_rounds;
		out->busy_rounds += s[i]->busy_rounds;
		out->quiet_tolerance = fmax(out->quiet_tolerance, s[i]->quiet_tolerance);
		if (isfinite(s[i]->same_code_gap_pct))
			out->same_code_gap_pct =
				isfinite(out->same_code_gap_pct)
					? fmax(out->same_code_gap_pct, s[i]->same_code_gap_pct)
					: s[i]->same_code_gap_pct;
		out->sittings += s[i]->sittings ? s[i]->sittings : 1;
	}
	return err;
}

int mixmeas_pool(const struct mixmeas *const *s, size_t n, struct mixmeas *out)
{
	struct mixmeas_figure *f = calloc(n, sizeof(*f)), *b = calloc(n, sizeof(*b));
	double *tmp = calloc(n, sizeof(*tmp)), *ns = calloc(n, sizeof(*ns));
	size_t i, r;
	int err;

	memset(out, 0, sizeof(*out));
	err = f && b && tmp && ns ? pool_head(s, n, out) : -ENOMEM;
	out->rows = err ? NULL : calloc(s[n - 1]->nr_rows, sizeof(*out->rows));
	if (!err && !out->rows)
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++)
		f[i] = s[i]->control;
	if (!err)
		out->control = pool_figures(f, n, tmp);
	for (r = 0; !err && r < s[n - 1]->nr_rows; r++) {
		struct mixmeas_row *w = &out->rows[r];

		w->key = s[n - 1]->rows[r].key;
		memcpy(w->name, s[n - 1]->rows[r].name, sizeof(w->name));
		for (i = 0; i < n; i++) {
			const struct mixmeas_row *sr = mixmeas_row_find(s[i], &w->key);
			struct mixmeas_figure none = { NAN, NAN, NAN };

			f[i] = sr ? sr->quiet : none; /* none: not the same measurement */
			b[i] = sr ? sr->busy : none;
			ns[i] = sr ? sr->ns_per_call : NAN;
		}
		w->quiet = pool_figures(f, n, tmp);
		w->busy = pool_figures(b, n, tmp);
		w->ns_per_call = median_of(ns, n);
		out->nr_rows++;
	}
	free(f);
	free(b);
	free(tmp);
	free(ns);
	if (err)
		mixmeas_free(out);
	return err;
}
