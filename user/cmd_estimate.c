// SPDX-License-Identifier: GPL-2.0
/* cmd_estimate.c: `copyprof estimate`: what each REP MOVSB/STOSB threshold would save */
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "estimate/estimate.h"
#include "estimate/estimate_calib.h"
#include "estimate/estimate_mix_measure.h"
#include "estimate/estimate_neighbour_measure.h"
#include "lib/log.h"
#include "profile/merge.h"
#include "estimate/replay.h"

#define MAX_MODELS 16

struct estimate_args {
	const char *inputs[256];
	size_t nr_inputs;
	const char *models[MAX_MODELS];
	size_t nr_models;
	const char *hist;
	struct est_options o;
	bool json, validate, no_mix, no_nb;
};

enum { OPT_HIST = 0x100, OPT_FAMILY, OPT_THRESHOLDS, OPT_CACHE, OPT_AT, OPT_JSON, OPT_VALIDATE,
       OPT_NO_MIX, OPT_NO_NB };

static const struct argp_option options[] = {
	{ "input", 'i', "PROFILE", 0, "Profile to estimate (repeat: summed, kept apart by CPU)" },
	{ "costmodel", 'm', "FILE", 0,
	  "Cost model from calibrate (repeat: each profile group takes its CPU's model; "
	  "default: calibrate --quick now)" },
	{ "hist", OPT_HIST, "FILE", 0,
	  "A size table instead of (or besides) profiles: 'size,count' CSV or fleetbench's "
	  "'size<TAB>probability'" },
	{ "family", OPT_FAMILY, "NAME", 0, "memcpy, memmove, clear_user or memset (default: all "
	  "with data; the family of --hist, default memcpy)" },
	{ "thresholds", OPT_THRESHOLDS, "LIST", 0,
	  "Candidate T list, K/M suffixes, 'never' (default 0,32,64,128,256,512,1K,1536,2K,4K,8K,"
	  "never)" },
	{ "cache", OPT_CACHE, "STATE", 0, "warm (default), src-flushed, dst-flushed, or "
	  "mixed=W,S,D (weights)" },
	{ "at", OPT_AT, "T", 0, "Per-site breakdown and summary at this T (default: the best)" },
	{ "json", OPT_JSON, NULL, 0, "Print a JSON object (docs/estimate.md) instead of text" },
	{ "validate", OPT_VALIDATE, NULL, 0,
	  "Replay the lengths through the replicas and compare measured with predicted" },
	{ "no-mix-correction", OPT_NO_MIX, NULL, 0,
	  "The pure cost model: do not add the misprediction penalty that a replay of the "
	  "profile's lengths below 512 bytes, shuffled against sorted, measures (nor the "
	  "neighbour correction)" },
	{ "no-neighbour-correction", OPT_NO_NB, NULL, 0,
	  "Leave out the second correction: each policy replayed on the whole mix, shuffled "
	  "against sorted (what long and short neighbours do to each other)" },
	{ "verbose", 'v', NULL, 0, "More messages" },
	{},
};

static const char doc[] =
	"Estimate what a REP MOVSB/STOSB threshold would save on a recorded workload:\n"
	"for each copy family, today's code, the string op at every length, the loop\n"
	"below T and the string op from T for every candidate T, and an oracle; with\n"
	"95% intervals from the calibration's spread and the counting error, the best\n"
	"T, per-site winners and losers, and a paragraph for a commit message\n"
	"(docs/estimate.md).\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof estimate -i copyprof.json -m costmodel.json\n"
	"  copyprof estimate -i btrfs.json -m cm.json --cache mixed=2,1,1 --at 2048\n"
	"  copyprof estimate \\\n"
	"      --hist examples/data/fleetbench-2023/MemcpyGoogleFleet.txt \\\n"
	"      -m examples/costmodels/cooperlake-8321hc-seed.json\n"
	"  copyprof estimate -i fleet.json -m icx.json -m clx.json --json |\n"
	"      jq '.inputs[0].families'\n"
	"  copyprof estimate -i copyprof.json --validate   # calibrates --quick first\n"
	"  copyprof estimate -i copyprof.json -m cm.json --no-mix-correction\n"
	"  copyprof estimate -i copyprof.json -m cm.json --no-neighbour-correction\n"
	"\n"
	"Exit status: 0 ok, 1 runtime failure (unreadable input, no copy-family\n"
	"calls, a cost model without a needed implementation or cache state), 2 usage\n"
	"error.";

static uint64_t parse_len(struct argp_state *state, const char *opt, const char *arg)
{
	struct est_options tmp;
	char why[96];

	if (est_thresholds_parse(arg, &tmp, why, sizeof(why)) || tmp.nr_thresholds != 1)
		argp_error(state, "%s %s: give one length or 'never'", opt, arg);
	return tmp.thresholds[0];
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct estimate_args *a = state->input;
	char why[96];

	switch (key) {
	case 'i':
		if (a->nr_inputs == sizeof(a->inputs) / sizeof(a->inputs[0]))
			argp_error(state, "too many -i; merge them first with copyprof merge");
		a->inputs[a->nr_inputs++] = arg;
		break;
	case 'm':
		if (a->nr_models == MAX_MODELS)
			argp_error(state, "at most %d cost models", MAX_MODELS);
		a->models[a->nr_models++] = arg;
		break;
	case OPT_HIST:
		a->hist = arg;
		break;
	case OPT_FAMILY:
		a->o.family = est_family_parse(arg);
		if (a->o.family < 0)
			argp_error(state, "--family %s: give memcpy, memmove, clear_user or memset", arg);
		break;
	case OPT_THRESHOLDS:
		if (est_thresholds_parse(arg, &a->o, why, sizeof(why)))
			argp_error(state, "--thresholds %s: %s", arg, why);
		break;
	case OPT_CACHE:
		if (est_cache_parse(arg, &a->o.cache))
			argp_error(state, "--cache %s: give warm, src-flushed, dst-flushed or "
				   "mixed=W,S,D with weights >= 0, not all 0", arg);
		break;
	case OPT_AT:
		a->o.at = parse_len(state, "--at", arg);
		a->o.at_set = true;
		break;
	case OPT_JSON:
		a->json = true;
		break;
	case OPT_VALIDATE:
		a->validate = true;
		break;
	case OPT_NO_MIX:
		a->no_mix = true;
		break;
	case OPT_NO_NB:
		a->no_nb = true;
		break;
	case 'v':
		log_verbose = true;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s' (profiles are given with -i)", arg);
		break;
	case ARGP_KEY_END:
		if (!a->nr_inputs && !a->hist)
			argp_error(state, "give a profile with -i or a size table with --hist");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* --at is always evaluated: add it to the candidates if it is not one. */
static void add_at(struct est_options *o)
{
	size_t i;

	if (!o->at_set)
		return;
	for (i = 0; i < o->nr_thresholds; i++)
		if (o->thresholds[i] == o->at)
			return;
	if (o->nr_thresholds == EST_MAX_THRESHOLDS)
		o->nr_thresholds--;
	for (i = o->nr_thresholds; i > 0 && o->thresholds[i - 1] > o->at; i--)
		o->thresholds[i] = o->thresholds[i - 1];
	o->thresholds[i] = o->at;
	o->nr_thresholds++;
}

/* The model measured on the input's CPU if one was, else the first. */
static size_t pick_model(struct costmodel **m, size_t n, const struct est_input *in)
{
	size_t i;

	for (i = 0; i < n && in->meta.cpu_model; i++)
		if (m[i]->meta.cpu_model && !strcmp(m[i]->meta.cpu_model, in->meta.cpu_model))
			return i;
	return 0;
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
static int evaluate_neighbour(struct estimate_args *a, struct est_input *in, enum est_family f,
			      struct costmodel *m, const char *model_name, const double *pure,
			      struct est_family_result *fr)
{
	struct est_options o = a->o;
	struct est_neighbour nb;
	struct est_mix mix = fr->mix;
	double *mixed = row_totals(fr);
	int err;

	if (!mixed)
		return -ENOMEM;
	p_info("neighbour correction: replaying %s's whole mix through every policy, shuffled and "
	       "sorted (%zu calls, %d runs)", est_family(f)->name, est_mix_calls(&a->o.cache),
	       EST_MIX_RUNS);
	err = est_neighbour_measure(fr, pure, mixed, m, &a->o.cache, &nb);
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
static int evaluate_mixed(struct estimate_args *a, struct est_input *in, enum est_family f,
			  struct costmodel *m, const char *model_name, bool here,
			  struct est_family_result *fr)
{
	struct est_options o = a->o;
	double *pure = NULL;
	struct est_mix mix;
	int err;

	if (a->no_mix) {
		est_mix_skip(&mix, "--no-mix-correction");
	} else if (!here) {
		est_mix_model_is_here(m, &mix);
	} else {
		p_info("mix correction: replaying %s's lengths below %d bytes by size class (%zu "
		       "calls a sample, %d runs)", est_family(f)->name, EST_MIX_CUTOFF,
		       est_mix_calls(&a->o.cache), EST_MIX_RUNS);
		err = est_mix_measure(fr, m, &a->o.cache, &mix);
		if (err)
			return err;
	}
	if (here && !a->no_mix && !a->no_nb) {
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
		err = evaluate_neighbour(a, in, f, m, model_name, pure, fr);
	else
		est_neighbour_skip(&fr->nb, a->no_mix ? "--no-mix-correction" :
					    a->no_nb ? "--no-neighbour-correction" : mix.why);
out:
	free(pure);
	return err;
}

static int estimate_input(struct estimate_args *a, struct est_input *in, struct costmodel *m,
			  const char *model_name, json_object *jout)
{
	struct est_mix skipped;
	bool here = !a->no_mix && est_mix_model_is_here(m, &skipped);
	struct est_family_result fam[EST_NR_FAMILIES];
	struct est_report r = { in, m, model_name, &a->o, fam, 0 };
	int f, err = 0;
	size_t i;

	/* A size table has no machine: today's code is the cost model's CPU's. */
	if (!in->meta.kernel && !in->meta.nr_cpu_flags && !in->meta.cpu_model) {
		in->meta.kernel = m->meta.kernel;
		in->meta.cpu_model = m->meta.cpu_model;
		in->meta.cpu_flags = m->meta.cpu_flags;
		in->meta.nr_cpu_flags = m->meta.nr_cpu_flags;
	}
	for (f = 0; f < EST_NR_FAMILIES && !err; f++) {
		if ((a->o.family >= 0 && f != a->o.family) || !est_input_has_family(in, f))
			continue;
		err = est_family_evaluate(in, f, m, model_name, &a->o, &fam[r.nr_fam]);
		if (!err)
			err = evaluate_mixed(a, in, f, m, model_name, here, &fam[r.nr_fam]);
		if (!err)
			r.nr_fam++;
		else
			est_family_result_free(&fam[r.nr_fam]);
	}
	if (!err && !r.nr_fam) {
		p_err("%s has no %s calls to estimate", in->name,
		      a->o.family >= 0 ? est_family(a->o.family)->name : "copy-family");
		err = -ENOENT;
	}
	for (i = 0; !err && a->validate && i < r.nr_fam; i++) {
		struct replay_opts ro = { &a->o.cache, m->cpu, REPLAY_CALLS, REPLAY_RUNS,
					  REPLAY_SEED };

		p_info("validate: replaying %s through the replicas (%d interleaved runs)",
		       est_family(fam[i].family)->name, ro.runs);
		err = replay_family(&fam[i], &ro);
	}
	if (!err && jout)
		json_object_array_add(jout, est_report_to_json(&r));
	else if (!err)
		est_print_text(stdout, &r, log_verbose);
	for (i = 0; i < r.nr_fam; i++)
		est_family_result_free(&fam[i]);
	return err;
}

static int read_inputs(struct estimate_args *a, struct est_input **ins, size_t *nr,
		       struct profile **merged)
{
	struct profile *ps[256] = { NULL };
	struct est_input *v = NULL, hist;
	size_t i, n = 0;
	int err = 0;

	for (i = 0; !err && i < a->nr_inputs; i++)
		err = profile_read(a->inputs[i], &ps[i]);
	if (!err && a->nr_inputs == 1) {
		*merged = ps[0];
		ps[0] = NULL;
	} else if (!err && a->nr_inputs > 1) {
		err = merge_profiles(ps, a->nr_inputs, merged);
	}
	for (i = 0; i < a->nr_inputs; i++)
		profile_free(ps[i]);
	if (!err && *merged)
		err = est_inputs_from_profile(*merged, a->nr_inputs == 1 ? a->inputs[0] :
					      "merged profiles", &v, &n);
	if (!err && a->hist) {
		err = est_input_from_hist(a->hist, a->o.family >= 0 ? a->o.family : EST_MEMCPY,
					  &hist);
		if (!err) {
			struct est_input *nv = realloc(v, (n + 1) * sizeof(*v));

			if (!nv) {
				est_input_free(&hist);
				err = -ENOMEM;
			} else {
				v = nv;
				v[n++] = hist;
			}
		}
	}
	*ins = v;
	*nr = n;
	return err;
}

int cmd_estimate(int argc, char **argv)
{
	static const struct argp argp = { options, parse_opt, NULL, doc };
	struct estimate_args args = { 0 };
	struct costmodel *models[MAX_MODELS] = { NULL };
	struct est_input *ins = NULL;
	struct profile *merged = NULL;
	json_object *jout = NULL;
	size_t i, nr_ins = 0, nr_models = 0;
	int err = 0, ret = EXIT_RUNTIME;

	est_options_default(&args.o);
	argp_parse(&argp, argc, argv, 0, NULL, &args);
	add_at(&args.o);
	if (read_inputs(&args, &ins, &nr_ins, &merged))
		goto out;
	for (i = 0; !err && i < args.nr_models; i++, nr_models++)
		err = costmodel_read(args.models[i], &models[i]);
	if (err)
		goto out;
	if (!nr_models) {
		err = est_calibrate_quick(ins, nr_ins, &args.o, &models[0]);
		if (err)
			goto out;
		nr_models = 1;
		args.models[0] = "(calibrate --quick, this run)";
	}
	if (args.json)
		jout = json_object_new_array();
	for (i = 0; !err && i < nr_ins; i++) {
		size_t k = pick_model(models, nr_models, &ins[i]);

		if (i && !args.json)
			printf("\n");
		err = estimate_input(&args, &ins[i], models[k], args.models[k], jout);
	}
	if (!err && jout) {
		json_object *root = json_object_new_object();

		json_object_object_add(root, "format", json_object_new_string("copyprof-estimate"));
		json_object_object_add(root, "version", json_object_new_int(1));
		json_object_object_add(root, "cache", json_object_new_string(args.o.cache.label));
		json_object_object_add(root, "inputs", json_object_get(jout));
		printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_SPACED));
		json_object_put(root);
	}
	if (!err)
		ret = EXIT_OK;
out:
	json_object_put(jout);
	for (i = 0; i < nr_ins; i++)
		est_input_free(&ins[i]);
	free(ins);
	profile_free(merged);
	for (i = 0; i < MAX_MODELS; i++)
		costmodel_free(models[i]);
	return ret;
}
