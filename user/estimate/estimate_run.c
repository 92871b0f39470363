// SPDX-License-Identifier: GPL-2.0
/* estimate_run.c: an estimate run: read the inputs and cost models, estimate, correct, validate */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_calib.h"
#include "estimate_mix_measure.h"
#include "estimate_model.h"
#include "estimate_neighbour_measure.h"
#include "estimate_run.h"
#include "lib/log.h"
#include "profile/merge.h"
#include "profile/profile.h"
#include "replay.h"

static int read_inputs(struct est_run *run, const char *const *profiles, size_t nr_profiles,
		       const char *hist)
{
	struct profile *ps[EST_MAX_PROFILES] = { NULL };
	struct est_input *v = NULL, table;
	size_t i, n = 0;
	int family = run->opts.o.family, err = 0;

	for (i = 0; !err && i < nr_profiles; i++)
		err = profile_read(profiles[i], &ps[i]);
	if (!err && nr_profiles == 1) {
		run->profile = ps[0];
		ps[0] = NULL;
	} else if (!err && nr_profiles > 1) {
		err = merge_profiles(ps, nr_profiles, &run->profile);
	}
	for (i = 0; i < nr_profiles; i++)
		profile_free(ps[i]);
	if (!err && run->profile)
		err = est_inputs_from_profile(
			run->profile, nr_profiles == 1 ? profiles[0] : "merged profiles", &v, &n);
	if (!err && hist) {
		err = est_input_from_hist(hist, family >= 0 ? family : EST_MEMCPY, &table);
		if (!err) {
			struct est_input *nv = realloc(v, (n + 1) * sizeof(*v));

			if (!nv) {
				est_input_free(&table);
				err = -ENOMEM;
			} else {
				v = nv;
				v[n++] = table;
			}
		}
	}
	run->ins = v;
	run->nr_ins = n;
	return err;
}

static int read_models(struct est_run *run, const char *const *models, size_t nr_models)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < nr_models; i++, run->nr_models++) {
		run->model_names[i] = models[i];
		err = costmodel_read(models[i], &run->models[i]);
	}
	if (err || run->nr_models)
		return err;
	err = est_calibrate_quick(run->ins, run->nr_ins, &run->opts.o, &run->models[0]);
	if (err)
		return err;
	run->nr_models = 1;
	run->model_names[0] = "(calibrate --quick, this run)";
	return 0;
}

int est_run_load(struct est_run *run, const struct est_run_opts *opts, const char *const *profiles,
		 size_t nr_profiles, const char *hist, const char *const *models, size_t nr_models)
{
	int err;

	memset(run, 0, sizeof(*run));
	run->opts = *opts;
	est_options_add_at(&run->opts.o);
	err = read_inputs(run, profiles, nr_profiles, hist);
	return err ? err : read_models(run, models, nr_models);
}

int est_run_load_profile(struct est_run *run, const struct est_run_opts *opts, struct profile *p,
			 const char *name, const char *const *models, size_t nr_models)
{
	int err;

	memset(run, 0, sizeof(*run));
	run->opts = *opts;
	est_options_add_at(&run->opts.o);
	run->profile = p;
	err = est_inputs_from_profile(p, name, &run->ins, &run->nr_ins);
	return err ? err : read_models(run, models, nr_models);
}

/* The model measured on the input's CPU if one was, else the first. */
static size_t pick_model(const struct est_run *run, const struct est_input *in)
{
	size_t i;

	for (i = 0; i < run->nr_models && in->meta.cpu_model; i++)
		if (run->models[i]->meta.cpu_model &&
		    !strcmp(run->models[i]->meta.cpu_model, in->meta.cpu_model))
			return i;
	return 0;
}

/* A size table has no machine: today's code is the cost model's CPU's. */
static void adopt_model_machine(struct est_input *in, const struct costmodel *m)
{
	if (in->meta.kernel || in->meta.nr_cpu_flags || in->meta.cpu_model)
		return;
	in->meta.kernel = m->meta.kernel;
	in->meta.cpu_model = m->meta.cpu_model;
	in->meta.cpu_flags = m->meta.cpu_flags;
	in->meta.nr_cpu_flags = m->meta.nr_cpu_flags;
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

/*
 * The neighbour correction (docs/estimate.md#the-neighbour-correction): every policy on the
 * whole mix, shuffled and sorted; @pure holds the pure model's row totals, @fr the result with
 * the mix correction, replaced by the one with both.
 */
static int evaluate_neighbour(const struct est_run_opts *opts, struct est_input *in,
			      enum est_family f, struct costmodel *m, const char *model_name,
			      const double *pure, struct est_family_result *fr)
{
	struct est_options o = opts->o;
	struct est_neighbour nb;
	struct est_mix mix = fr->mix;
	double *mixed = row_totals(fr);
	int err;

	if (!mixed)
		return -ENOMEM;
	p_info("neighbour correction: replaying %s's whole mix through every policy, shuffled and "
	       "sorted (%zu calls, %d runs)",
	       est_family(f)->name, est_mix_calls(&opts->o.cache), EST_MIX_RUNS);
	err = est_neighbour_measure(fr, pure, mixed, m, &opts->o.cache, &nb);
	free(mixed);
	if (err || !nb.applied) {
		fr->nb = nb;
		return err;
	}
	o.mix = mix.applied ? &mix : NULL;
	o.residual_ns = nb.residual_ns;
	est_family_result_free(fr);
	err = est_family_evaluate(in, f, m, model_name, &o, fr);
	fr->mix = mix;
	fr->nb = nb;
	return err;
}

/*
 * The mix correction (docs/estimate.md#the-mix-correction): with a model measured on this CPU,
 * replay the family's short lengths, then cost again with the penalties; then the neighbour
 * correction. @fr holds the pure model's result on entry.
 */
static int evaluate_mixed(const struct est_run_opts *opts, struct est_input *in, enum est_family f,
			  struct costmodel *m, const char *model_name, bool here,
			  struct est_family_result *fr)
{
	struct est_options o = opts->o;
	double *pure = NULL;
	struct est_mix mix;
	int err;

	if (opts->no_mix) {
		est_mix_skip(&mix, "--no-mix-correction");
	} else if (!here) {
		est_mix_model_is_here(m, &mix);
	} else {
		p_info("mix correction: replaying %s's lengths below %d bytes by size class (%zu "
		       "calls a sample, %d runs)",
		       est_family(f)->name, EST_MIX_CUTOFF, est_mix_calls(&opts->o.cache),
		       EST_MIX_RUNS);
		err = est_mix_measure(fr, m, &opts->o.cache, &mix);
		if (err)
			return err;
	}
	if (here && !opts->no_mix && !opts->no_nb) {
		pure = row_totals(fr);
		if (!pure)
			return -ENOMEM;
	}
	if (mix.applied) {
		o.mix = &mix;
		est_family_result_free(fr);
		err = est_family_evaluate(in, f, m, model_name, &o, fr);
		if (err)
			goto out;
	}
	fr->mix = mix;
	if (pure)
		err = evaluate_neighbour(opts, in, f, m, model_name, pure, fr);
	else
		est_neighbour_skip(&fr->nb, opts->no_mix  ? "--no-mix-correction"
					    : opts->no_nb ? "--no-neighbour-correction"
							  : mix.why);
out:
	free(pure);
	return err;
}

int est_run_input(struct est_run *run, size_t i, struct est_report *r)
{
	const struct est_run_opts *opts = &run->opts;
	struct est_input *in = &run->ins[i];
	size_t k = pick_model(run, in);
	struct costmodel *m = run->models[k];
	const char *model_name = run->model_names[k];

	if (opts->match_cpu && (!in->meta.cpu_model || !m->meta.cpu_model ||
				strcmp(in->meta.cpu_model, m->meta.cpu_model))) {
		memset(r, 0, sizeof(*r));
		p_warn("%s: no cost model was measured on CPU '%s'; run calibrate -o MODEL.json "
		       "on one and add it",
		       in->name, in->meta.cpu_model ?: "(unknown)");
		return -ENOENT;
	}
	struct est_mix skipped;
	bool here = !opts->no_mix && est_mix_model_is_here(m, &skipped);
	int f, err = 0;
	size_t j;

	memset(r, 0, sizeof(*r));
	r->in = in;
	r->m = m;
	r->model_name = model_name;
	r->o = &opts->o;
	adopt_model_machine(in, m);
	for (f = 0; f < EST_NR_FAMILIES && !err; f++) {
		if ((opts->o.family >= 0 && f != opts->o.family) || !est_input_has_family(in, f))
			continue;
		err = est_family_evaluate(in, f, m, model_name, &opts->o, &r->fam[r->nr_fam]);
		if (!err)
			err = evaluate_mixed(opts, in, f, m, model_name, here, &r->fam[r->nr_fam]);
		if (!err)
			r->nr_fam++;
		else
			est_family_result_free(&r->fam[r->nr_fam]);
	}
	if (!err && !r->nr_fam) {
		p_err("%s has no %s calls to estimate", in->name,
		      opts->o.family >= 0 ? est_family(opts->o.family)->name : "copy-family");
		err = -ENOENT;
	}
	for (j = 0; !err && opts->validate && j < r->nr_fam; j++) {
		struct replay_opts ro = { &opts->o.cache, m->cpu, REPLAY_CALLS, REPLAY_RUNS,
					  REPLAY_SEED };

		p_info("validate: replaying %s through the replicas (%d interleaved runs)",
		       est_family(r->fam[j].family)->name, ro.runs);
		err = replay_family(&r->fam[j], &ro);
	}
	return err;
}

void est_report_free(struct est_report *r)
{
	size_t i;

	for (i = 0; i < r->nr_fam; i++)
		est_family_result_free(&r->fam[i]);
	r->nr_fam = 0;
}

void est_run_free(struct est_run *run)
{
	size_t i;

	for (i = 0; i < run->nr_ins; i++)
		est_input_free(&run->ins[i]);
	free(run->ins);
	profile_free(run->profile);
	for (i = 0; i < EST_MAX_MODELS; i++)
		costmodel_free(run->models[i]);
	memset(run, 0, sizeof(*run));
}
