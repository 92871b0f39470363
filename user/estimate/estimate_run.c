// SPDX-License-Identifier: GPL-2.0
/* estimate_run.c: an estimate run: read the inputs and cost models, estimate, correct, validate */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_calib.h"
#include "estimate_corr.h"
#include "estimate_model.h"
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

int est_run_read(struct est_run *run, const struct est_run_opts *opts, const char *const *profiles,
		 size_t nr_profiles, const char *hist)
{
	memset(run, 0, sizeof(*run));
	run->opts = *opts;
	run->profile_paths = profiles;
	run->nr_profile_paths = nr_profiles;
	run->hist_path = hist;
	est_options_add_at(&run->opts.o);
	return read_inputs(run, profiles, nr_profiles, hist);
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
	/* Only --validate, which measures anyway, runs without a cost model. */
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
	int err = est_run_read(run, opts, profiles, nr_profiles, hist);

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

/* The command that measures the corrections for this input into its cost model. */
static void add_command(const struct est_run *run, const struct est_input *in,
			const char *model_name, enum est_family f, char *buf, size_t len)
{
	int n = snprintf(buf, len, "copyprof calibrate -i %s", model_name);
	size_t i;

	if (run->hist_path && in == &run->ins[run->nr_ins - 1])
		n += snprintf(buf + n, len - (size_t)n, " --hist %s --family %s", run->hist_path,
			      est_family(f)->name);
	else if (!run->nr_profile_paths) { /* estimate --prometheus: no file holds the mix */
		snprintf(buf, len,
			 "estimate --prometheus ... --save-profile FLEET.json, then copyprof "
			 "calibrate -i %s --mix FLEET.json -o %s and copyprof estimate -i "
			 "FLEET.json",
			 model_name, model_name);
		return;
	} else
		for (i = 0; i < run->nr_profile_paths && n > 0 && (size_t)n < len; i++)
			n += snprintf(buf + n, len - (size_t)n, " --mix %s", run->profile_paths[i]);
	if (n > 0 && (size_t)n < len && strcmp(run->opts.o.cache.label, "warm"))
		n += snprintf(buf + n, len - (size_t)n, " --mix-cache %s", run->opts.o.cache.label);
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " -o %s", model_name);
}

/*
 * The corrections the model stores for this very mix (calibrate --mix), applied; none: the
 * pure model, and why. @fr holds the pure model's result on entry. Never measures anything.
 */
static int apply_stored(const struct est_run *run, struct est_input *in, enum est_family f,
			struct costmodel *m, const char *model_name, struct est_family_result *fr)
{
	const struct est_run_opts *opts = &run->opts;
	struct est_options o = opts->o;
	uint64_t digest = est_corr_digest(fr, &opts->o.cache);
	json_object *e = opts->no_mix || !m->measured ? NULL : est_corr_find(m, f, digest);
	struct est_neighbour nb;
	struct est_mix mix;
	char cmd[400], why[sizeof(mix.why)];
	int err;

	if (!e) {
		if (opts->no_mix) {
			snprintf(why, sizeof(why), "--no-mix-correction");
		} else if (!m->measured) {
			snprintf(why, sizeof(why),
				 "the cost model is built from published figures, not measured");
		} else {
			add_command(run, in, model_name, f, cmd, sizeof(cmd));
			snprintf(why, sizeof(why), "not measured for this mix; add it with: %.400s",
				 cmd);
		}
		est_mix_skip(&fr->mix, why);
		est_neighbour_skip(&fr->nb, why);
		fr->mix_digest = digest;
		return 0;
	}
	est_corr_mix(e, fr, &mix);
	if (opts->no_nb)
		est_neighbour_skip(&nb, "--no-neighbour-correction");
	else if ((err = est_corr_neighbour(e, fr, &nb)))
		return err;
	if (!mix.applied && !nb.applied) {
		fr->mix = mix;
		fr->nb = nb;
		fr->mix_digest = digest;
		return 0;
	}
	o.mix = mix.applied ? &mix : NULL;
	o.residual_ns = nb.applied ? nb.residual_ns : NULL;
	est_family_result_free(fr);
	err = est_family_evaluate(in, f, m, model_name, &o, fr);
	fr->mix = mix;
	fr->nb = nb;
	fr->mix_digest = digest;
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
			err = apply_stored(run, in, f, m, model_name, &r->fam[r->nr_fam]);
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
