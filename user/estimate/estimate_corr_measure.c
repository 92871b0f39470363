// SPDX-License-Identifier: GPL-2.0
/* estimate_corr_measure.c: calibrate --mix: the corrections for a length mix, measured */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_corr.h"
#include "estimate_corr_measure.h"
#include "estimate_mix_measure.h"
#include "estimate_model.h"
#include "estimate_neighbour_measure.h"
#include "lib/log.h"

/* Buckets with calls below @cutoff (all of them: UINT64_MAX). */
static size_t buckets_with_calls(const struct est_family_result *fr, uint64_t cutoff)
{
	size_t n = 0;
	int b;

	for (b = 0; b < CP_NBUCKETS; b++)
		n += fr->bucket_calls[b] > 0 && hist_bucket_lo((uint32_t)b) < cutoff;
	return n;
}

/* Each row's total_ns. */
static double *row_totals(const struct est_family_result *fr)
{
	double *v = malloc((fr->nr_rows ? fr->nr_rows : 1) * sizeof(double));
	size_t i;

	for (i = 0; v && i < fr->nr_rows; i++)
		v[i] = fr->rows[i].total_ns;
	return v;
}

/* Calls the neighbour replay can afford: EST_NB_MAX_BYTES over the mean length. */
static size_t nb_calls(const struct est_family_result *fr, const struct est_cache *cache)
{
	double calls = 0, bytes = 0, n;
	size_t max = est_mix_calls(cache);
	int b;

	for (b = 0; b < CP_NBUCKETS; b++) {
		calls += fr->bucket_calls[b] > 0 ? fr->bucket_calls[b] : 0;
		bytes += fr->bucket_calls[b] > 0 ? fr->bucket_bytes[b] : 0;
	}
	n = calls > 0 && bytes > 0 ? EST_NB_MAX_BYTES / (bytes / calls) : (double)max;
	if (n < EST_NB_MIN_CALLS)
		n = EST_NB_MIN_CALLS;
	return n < (double)max ? (size_t)n : max;
}

static int measure_family(struct est_run *run, struct est_input *in, enum est_family f,
			  struct costmodel *m, const char *model_name)
{
	const struct est_cache *cache = &run->opts.o.cache;
	struct est_options o = run->opts.o;
	struct est_family_result fr;
	struct est_mix mix;
	double *pure = NULL, *mixed = NULL;
	uint64_t digest;
	int err;

	err = est_family_evaluate(in, f, m, model_name, &o, &fr);
	if (err)
		goto out;
	digest = est_corr_digest(&fr, cache);
	if (buckets_with_calls(&fr, EST_MIX_CUTOFF) < 2) {
		est_mix_skip(&mix, buckets_with_calls(&fr, EST_MIX_CUTOFF)
					   ? "the calls below 512 B fall in one length bucket: "
					     "shuffled and sorted are the same order"
					   : "no calls below the cutoff");
	} else {
		p_info("calibrate --mix: %s: mix correction, %s's lengths below %d B by size class "
		       "(%zu calls a sample, %d runs)",
		       in->name, est_family(f)->name, EST_MIX_CUTOFF, est_mix_calls(cache),
		       EST_MIX_RUNS);
		err = est_mix_measure(&fr, m, cache, &mix);
		if (err)
			goto out;
	}
	pure = row_totals(&fr);
	if (!pure) {
		err = -ENOMEM;
		goto out;
	}
	if (mix.applied) {
		o.mix = &mix;
		est_family_result_free(&fr);
		err = est_family_evaluate(in, f, m, model_name, &o, &fr);
		if (err)
			goto out;
	}
	fr.mix = mix;
	mixed = row_totals(&fr);
	if (!mixed) {
		err = -ENOMEM;
		goto out;
	}
	if (buckets_with_calls(&fr, UINT64_MAX) < 2) {
		est_neighbour_skip(&fr.nb, "every call falls in one length bucket: shuffled and "
					   "sorted are the same order");
	} else {
		size_t calls = nb_calls(&fr, cache);

		p_info("calibrate --mix: %s: neighbour correction, %s's whole mix through %zu "
		       "policies, shuffled and sorted (%zu calls, %d runs)",
		       in->name, est_family(f)->name, fr.nr_rows - 1, calls, EST_MIX_RUNS);
		err = est_neighbour_measure(&fr, pure, mixed, m, cache, calls, &fr.nb);
		if (err)
			goto out;
	}
	err = est_corr_store(m, est_corr_to_json(&fr, cache, digest));
	if (!err) {
		char d[24];

		est_corr_digest_str(digest, d, sizeof(d));
		p_info("calibrate --mix: %s: %s corrections stored (mix %s, neighbour %s; digest "
		       "%s)",
		       in->name, est_family(f)->name, fr.mix.applied ? "measured" : "skipped",
		       fr.nb.applied ? "measured" : "skipped", d);
	}
out:
	free(pure);
	free(mixed);
	est_family_result_free(&fr);
	return err;
}

int est_corr_measure(struct est_run *run, size_t i)
{
	struct est_input *in = &run->ins[i];
	struct costmodel *m = run->models[0];
	struct est_mix here;
	size_t n = 0;
	int f, err = 0;

	if (!est_mix_model_is_here(m, &here)) {
		p_err("calibrate --mix: %s: %s; measure the corrections with a model calibrated on "
		      "this CPU",
		      run->model_names[0], here.why);
		return -EINVAL;
	}
	if (!in->meta.kernel && !in->meta.nr_cpu_flags && !in->meta.cpu_model) {
		in->meta.kernel = m->meta.kernel;
		in->meta.cpu_model = m->meta.cpu_model;
		in->meta.cpu_flags = m->meta.cpu_flags;
		in->meta.nr_cpu_flags = m->meta.nr_cpu_flags;
	}
	for (f = 0; f < EST_NR_FAMILIES && !err; f++) {
		if ((run->opts.o.family >= 0 && f != run->opts.o.family) ||
		    !est_input_has_family(in, f))
			continue;
		err = measure_family(run, in, f, m, run->model_names[0]);
		n++;
	}
	if (!err && !n) {
		p_err("%s has no copy-family calls to measure corrections for", in->name);
		err = -ENOENT;
	}
	return err;
}
