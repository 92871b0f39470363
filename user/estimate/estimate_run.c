// SPDX-License-Identifier: GPL-2.0
/* estimate_run.c: an estimate run: read the inputs and cost models, estimate, correct, validate */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "costmodel/costmodel_paired.h"
#include "costmodel/mixmeas_pool.h"
#include "estimate_digest.h"
#include "estimate_dist.h"
#include "estimate_footprint.h"
#include "estimate_model.h"
#include "estimate_matrix.h"
#include "estimate_run.h"
#include "estimate_verdict.h"
#include "lib/log.h"
#include "profile/merge.h"
#include "profile/profile.h"

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
		err = est_input_from_hist(hist, family >= 0 ? family : CF_MEMCPY, &table);
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
	return err;
}

int est_run_add_model(struct est_run *run, struct costmodel *m, const char *name)
{
	if (run->nr_models == EST_MAX_MODELS) {
		costmodel_free(m);
		return -E2BIG;
	}
	run->models[run->nr_models] = m;
	run->model_names[run->nr_models++] = name;
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

	for (i = 0; i < run->nr_models; i++)
		if (host_same_cpu(&run->models[i]->meta, &in->meta))
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
	in->meta.cpu_flags_unknown = m->meta.cpu_flags_unknown;
	in->meta.machine = m->meta.machine;
}

/* The command that measures this input's mix into its cost model. */
static void measure_command(const struct est_run *run, const struct est_input *in,
			    const char *model_name, enum copy_family f, char *buf, size_t len)
{
	const struct est_options *o = &run->opts.o;
	bool fleet = !(run->hist_path && in == &run->ins[run->nr_ins - 1]) &&
		     !run->nr_profile_paths; /* estimate --prometheus: no file holds the mix */
	int n = snprintf(buf, len, "%scopyprof calibrate -i %s",
			 fleet ? "estimate --prometheus ... --save-profile FLEET.json, then " : "",
			 model_name);
	size_t i;

	if (fleet)
		n += snprintf(buf + n, len - (size_t)n, " --mix FLEET.json");
	else if (run->hist_path && in == &run->ins[run->nr_ins - 1])
		n += snprintf(buf + n, len - (size_t)n, " --hist %s --family %s", run->hist_path,
			      est_family(f)->name);
	else
		for (i = 0; i < run->nr_profile_paths && n > 0 && (size_t)n < len; i++)
			n += snprintf(buf + n, len - (size_t)n, " --mix %s", run->profile_paths[i]);
	if (!(run->hist_path && in == &run->ins[run->nr_ins - 1]) && o->family >= 0 && n > 0 &&
	    (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " --family %s", est_family(f)->name);
	if (n > 0 && (size_t)n < len && strcmp(o->cache.label, "warm"))
		n += snprintf(buf + n, len - (size_t)n, " --mix-cache %s", o->cache.label);
	if (n > 0 && (size_t)n < len) {
		char t[160];

		est_today_args(o, t, sizeof(t));
		n += snprintf(buf + n, len - (size_t)n, "%s", t);
	}
	if (n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " -o %s", model_name);
	if (fleet && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " and copyprof estimate -i FLEET.json");
}

/*
 * The model's measurement of @fr's mix in the condition of @like: its one sitting, or its
 * sittings pooled into @c->pooled (mixmeas_pool(): intervals that span them all); NULL if none,
 * or no memory to pool them (said in meas_why).
 */
static const struct mixmeas *sittings(const struct costmodel *m, const char *family,
				      struct est_family_result *fr, const struct mixmeas *like,
				      struct est_cell *c)
{
	const struct mixmeas *s[MIXMEAS_MAX_SITTINGS];
	size_t n = costmodel_paired_sittings(m, family, fr->digest, NULL, like, s,
					     MIXMEAS_MAX_SITTINGS);

	if (n < 2)
		return n ? s[0] : NULL;
	c->pooled = calloc(1, sizeof(*c->pooled));
	if (!c->pooled || mixmeas_pool(s, n, c->pooled)) {
		free(c->pooled);
		c->pooled = NULL;
		snprintf(fr->meas_why, sizeof(fr->meas_why), "no memory to pool its %zu sittings",
			 n);
		return NULL;
	}
	return c->pooled;
}

/*
 * Every condition the model measured @fr's mix in, each a cell (its sittings pooled) with its
 * own reading (estimate_matrix.h); fr->meas is the shown cell's. Returns it, or NULL.
 */
static const struct mixmeas *cells(const struct est_options *o, const struct costmodel *m,
				   const char *family, struct est_family_result *fr)
{
	const struct mixmeas *cond[EST_MAX_CELLS];
	size_t i, n = costmodel_paired_conditions(m, family, fr->digest, NULL, cond, EST_MAX_CELLS);

	for (i = 0; i < n; i++) {
		struct est_cell *c = &fr->cells[fr->nr_cells];

		memset(c, 0, sizeof(*c));
		c->meas = sittings(m, family, fr, cond[i], c);
		if (!c->meas)
			return NULL;
		fr->nr_cells++;
		if (est_matrix_read_cell(o, fr, c))
			return NULL;
	}
	if (!fr->nr_cells)
		return NULL;
	est_matrix_collapse(fr);
	fr->shown = est_matrix_shown(o, fr);
	return fr->cells[fr->shown].meas;
}

/*
 * Each site row's own measurement (calibrate --mix measures the hottest sites' mixes), filed
 * under the whole mix's digest and the site's label; a family of one site has the whole's.
 * Sittings are pooled as the whole's are; a site whose sittings cannot be pooled stays not
 * measured.
 */
static void apply_site_measured(const struct costmodel *m, const char *family,
				struct est_family_result *fr)
{
	const struct mixmeas *s[MIXMEAS_MAX_SITTINGS];
	size_t i, n;

	for (i = 0; i < fr->nr_sites; i++) {
		struct est_site_row *row = &fr->sites[i];

		if (fr->nr_sites == 1) {
			row->meas = fr->meas;
			break;
		}
		n = costmodel_paired_sittings(m, family, fr->digest, row->site->label, fr->meas, s,
					      MIXMEAS_MAX_SITTINGS);
		if (n < 2) {
			row->meas = n ? s[0] : NULL;
			continue;
		}
		row->pooled = calloc(1, sizeof(*row->pooled));
		if (!row->pooled || mixmeas_pool(s, n, row->pooled)) {
			free(row->pooled);
			row->pooled = NULL;
			continue;
		}
		row->meas = row->pooled;
	}
}

/*
 * The paired measurement the model stores for this very mix (calibrate --mix), as the answer:
 * each row it measured takes its quiet rounds' figures; the model's stay beside them. None:
 * every figure is modelled, and @fr says why. Never measures anything.
 */
static void apply_measured(const struct est_run *run, const struct est_options *o,
			   const struct est_input *in, enum copy_family f,
			   const struct costmodel *m, const char *model_name,
			   struct est_family_result *fr)
{
	const struct mixmeas *mm, *one[1];

	est_mix_digest(in, f, fr->today_impl, fr->impls->glibc ? fr->today_knob : UINT64_MAX, o,
		       fr->digest, sizeof(fr->digest));
	est_dist_fill(in, f, fr);
	fr->footprint_bytes = est_footprint_bytes(in, f);
	fr->footprint_l2 = m->meta.machine.caches.l2;
	fr->footprint_cell = -1;
	fr->model_cpu = m->meta.cpu_model;
	fr->model_published = !m->measured;
	if (m->measured)
		measure_command(run, in, model_name, f, fr->measure_cmd, sizeof(fr->measure_cmd));
	if (run->opts.model_only) {
		snprintf(fr->meas_why, sizeof(fr->meas_why), "--model-only");
		fr->meas_stored =
			m->measured && costmodel_paired_sittings(m, est_family(f)->name, fr->digest,
								 NULL, NULL, one, 1);
		return;
	}
	if (!m->measured) {
		snprintf(fr->meas_why, sizeof(fr->meas_why),
			 "the cost model is built from published figures, not measured on a CPU");
		return;
	}
	mm = cells(o, m, est_family(f)->name, fr);
	if (!mm && !fr->meas_why[0] && fr->nr_cells) {
		snprintf(fr->meas_why, sizeof(fr->meas_why), "no memory to read its conditions");
		return;
	}
	if (!mm && !fr->meas_why[0]) {
		snprintf(fr->meas_why, sizeof(fr->meas_why),
			 "this mix was not measured on %.80s; measure it with: %.400s",
			 m->meta.cpu_model ? m->meta.cpu_model : "the model's CPU",
			 fr->measure_cmd);
		return;
	}
	if (!mm)
		return;
	fr->meas = mm;
	fr->measure_cmd[0] = '\0';
	est_matrix_apply(o, fr, mm);
	apply_site_measured(m, est_family(f)->name, fr);
}

/* True if @a and @b name the same policy their cheapest (by key, not by name). */
static bool same_best(const struct est_family_result *a, const struct est_family_result *b)
{
	struct policy_key ka = est_policy_key(&a->rows[a->best].pol);
	struct policy_key kb = est_policy_key(&b->rows[b->best].pol);

	return policy_key_same(&ka, &kb);
}

/*
 * A sampled family's samples weigh each length by the time spent there today, so the cache
 * state that time is priced in moves the answer (the main job's btrfs read inferred 2,920,000
 * calls warm, 255,000 with cold destinations). Where the other state (warm <-> dst-flushed)
 * gives another verdict, @fr says so: measured against measured where both states were
 * measured, else modelled against modelled (never one against the other).
 */
static void cache_check(const struct est_run *run, const struct est_input *in, enum copy_family f,
			struct costmodel *m, const char *model_name, struct est_family_result *fr)
{
	struct est_options o = run->opts.o, here = run->opts.o;
	const char *other = strcmp(o.cache.label, "warm") ? "warm" : "dst-flushed";
	struct est_family_result alt, cur;
	const struct est_family_result *a = &alt, *b = fr;
	char v1[EST_VERDICT_TEXT_LEN], v2[EST_VERDICT_TEXT_LEN];
	bool measured;

	if (!(fr->samples > 0) || est_cache_parse(other, &o.cache) ||
	    !costmodel_find(m, est_family(f)->loop, costmodel_cache_parse(other)))
		return;
	if (est_family_evaluate(in, f, m, model_name, &o, &alt))
		return;
	apply_measured(run, &o, in, f, m, model_name, &alt);
	measured = fr->meas && alt.meas;
	memset(&cur, 0, sizeof(cur));
	if (!measured) {
		/* Modelled on both sides: the model of this state too, and of the other alone. */
		est_family_result_free(&alt);
		if (est_family_evaluate(in, f, m, model_name, &o, &alt) ||
		    est_family_evaluate(in, f, m, model_name, &here, &cur)) {
			est_family_result_free(&alt);
			return;
		}
		b = &cur;
	}
	if (measured) {
		est_verdict_text(b, v1, sizeof(v1));
		est_verdict_text(a, v2, sizeof(v2));
		if (strcmp(v1, v2))
			snprintf(fr->cache_note, sizeof(fr->cache_note),
				 "with --cache %s the measured verdict is \"%.190s\" (here, "
				 "measured: \"%.190s\"): the samples weigh each length by its "
				 "time, and which cache state the copies find changes that time's "
				 "price",
				 other, v2, v1);
	} else if (est_figures_read(a) != est_figures_read(b) || !same_best(a, b)) {
		/* Modelled: no verdict either side, only that the figures point elsewhere. */
		snprintf(fr->cache_note, sizeof(fr->cache_note),
			 "with --cache %s the modelled figures point elsewhere (their cheapest "
			 "%s, here %s): the samples weigh each length by its time, and which cache "
			 "state the copies find changes that time's price; measure the mix in both "
			 "(calibrate --mix-cache)",
			 other, a->rows[a->best].pol.name, b->rows[b->best].pol.name);
	}
	est_family_result_free(&alt);
	est_family_result_free(&cur);
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
		if (!err) {
			apply_measured(run, &opts->o, in, f, m, model_name, &r->fam[r->nr_fam]);
			cache_check(run, in, f, m, model_name, &r->fam[r->nr_fam]);
		}
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
