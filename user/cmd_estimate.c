// SPDX-License-Identifier: GPL-2.0
/* cmd_estimate.c: `copyprof estimate`: what each REP MOVSB/STOSB threshold would save */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_cost_options.h"
#include "cmd_options.h"
#include "commands.h"
#include "estimate/estimate_json.h"
#include "estimate/estimate_options.h"
#include "estimate/estimate_run.h"
#include "estimate/estimate_text.h"
#include "estimate/model_folder.h"
#include "lib/jsonw.h"
#include "measure/calib_quick.h"
#include "fleet/fleet_partial.h"
#include "fleet/fleet_profile.h"
#include "measure/paired_validate.h"
#include "lib/log.h"
#include "asmref.h"

struct estimate_args {
	struct cmd_options common;    /* -i, -o, --json, -v */
	struct cmd_cost_options cost; /* -m, --cache, --family, --threshold */
	const char *hist;
	struct est_run_opts run;
	bool validate;
	struct fleet_query prom;       /* --prometheus, --selector, --range */
	struct fleet_partials partial; /* its sites that stopped counting in the range */
	char prom_name[640];
	const char *save_profile;	   /* --save-profile: the fleet's profile as read */
	char *model_files[EST_MAX_MODELS]; /* a -m folder's files */
};

enum {
	OPT_HIST = 0x100,
	OPT_THRESHOLDS,
	OPT_JSON,
	OPT_VALIDATE,
	OPT_MODEL_ONLY,
	OPT_TODAY,
	OPT_PROMETHEUS,
	OPT_SELECTOR,
	OPT_RANGE,
	OPT_SAVE_PROFILE
};

_Static_assert(CMD_MAX_INPUTS <= EST_MAX_PROFILES, "every -i must fit est_run_load()");

static const struct cmd_options_spec common_options = {
	.input_arg = "PROFILE",
	.input_help = "Profile to estimate (repeat: summed, kept apart by CPU)",
	.json_help = "Print a JSON object (docs/estimate.md) instead of text",
};

static const struct cmd_cost_spec cost_options = {
	.model_help =
		"Cost model from calibrate (repeat: each profile group takes its CPU's model), "
		"or a folder of them: then a CPU without its own model is left out, with a "
		"warning; required, except with --validate (then: calibrate --quick now)",
	.many_models = true,
	.family_help = "memcpy, memmove, clear_user or memset (default: all "
		       "with data; the family of --hist, default memcpy)",
	.cache_help = "warm (default), src-flushed, dst-flushed, or "
		      "mixed=W,S,D (weights)",
	.threshold_help = "Per-site breakdown and summary at this T (default: the best)",
};

static const struct argp_option options[] = {
	{ "prometheus", OPT_PROMETHEUS, "URL", 0,
	  "Read the fleet's histograms from Prometheus (or Thanos, Mimir) at URL instead of "
	  "profiles: what copyprof agents counted, summed over hosts, per CPU model, joined "
	  "to their agents on whatever target labels the scrape config sets; sites that "
	  "stopped counting in the range are named, with the seconds they counted "
	  "(docs/fleet.md)" },
	{ "selector", OPT_SELECTOR, "{LABEL=VALUE,...}", 0,
	  "With --prometheus: only these series, e.g. '{job=\"copyprof\",kernel=~\"6.12.*\"}'" },
	{ "range", OPT_RANGE, "DURATION", 0,
	  "With --prometheus: the increase over this range (default 1h; 7d, 90m ...)" },
	{ "save-profile", OPT_SAVE_PROFILE, "FILE", 0,
	  "With --prometheus: also write the fleet's profile as read to FILE, for calibrate "
	  "--mix (a range that ends now moves; a saved one does not) and estimate -i" },
	{ "hist", OPT_HIST, "FILE", 0,
	  "A size table instead of (or besides) profiles: 'size,count' CSV or fleetbench's "
	  "'size<TAB>probability'" },
	{ "thresholds", OPT_THRESHOLDS, "LIST", 0,
	  "Candidate T list, K/M suffixes, 'never' (default 0,32,64,128,256,512,1K,1536,2K,4K,8K,"
	  "never)" },
	{ "today", OPT_TODAY, "IMPL", 0,
	  "Today's code of IMPL's family is this replica (e.g. memcpy_orig, libc_memcpy; repeat "
	  "for other families), not the kernel's live dispatch or the probed replica; needed for "
	  "a uprobe on code copyprof does not replicate. 'glibc': memcpy, memmove and memset run "
	  "what the IFUNC of the input's glibc version picks on this CPU (--hist, a profile "
	  "that names no variant)" },
	{ "validate", OPT_VALIDATE, NULL, 0,
	  "MEASURES: an independent paired replay of the mix on this CPU (a new seed and "
	  "buffers), printed against the estimate (the one mode of estimate that times "
	  "anything)" },
	{ "model-only", OPT_MODEL_ONLY, NULL, 0,
	  "The cost model's per-length figures only, even where the model stores a paired "
	  "measurement of this mix (calibrate --mix): modelled, and so no verdict" },
	{ "no-mix-correction", OPT_MODEL_ONLY, NULL, OPTION_ALIAS | OPTION_HIDDEN },
	{},
};

static const char doc[] =
	"Estimate what a REP MOVSB/STOSB threshold would save on a recorded workload: for each "
	"copy family, today's code, the string op at every length, the loop below T and the string "
	"op from T for every candidate T, and an oracle; with 95% intervals from the calibration's "
	"spread and the counting error, the best T, per-site winners and losers, and a paragraph "
	"for a commit message (docs/estimate.md). estimate times nothing: the same inputs give the "
	"same output. The answer is the mix itself, measured paired by `calibrate --mix` and "
	"stored in the cost model; without such a measurement every figure is modelled, there is "
	"no verdict and no line to ship, and estimate prints the command that measures this very "
	"mix. A uprobe on glibc's memmove or "
	"memset code is answered in glibc's terms: GLIBC_TUNABLES thresholds "
	"(docs/estimate.md#glibc).\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof estimate -i copyprof.json -m costmodel.json\n"
	"  copyprof estimate -i btrfs.json -m cm.json --cache mixed=2,1,1 \\\n"
	"      --threshold 2048\n"
	"  copyprof estimate \\\n"
	"      --hist examples/data/fleetbench-2023/MemcpyGoogleFleet.txt \\\n"
	"      -m examples/costmodels/cooperlake-8321hc-seed.json\n"
	"  copyprof estimate -i fleet.json -m icx.json -m clx.json --json |\n"
	"      jq '.inputs[0].families'\n"
	"  copyprof calibrate -i cm.json --mix copyprof.json -o cm.json  # measure\n"
	"  copyprof estimate -i copyprof.json -m cm.json --model-only\n"
	"  copyprof estimate -i glibc-app.json -m cm.json  # glibc's threshold\n"
	"  copyprof estimate -i app.json -m cm.json --today memcpy_orig  # user space\n"
	"  copyprof estimate --hist sizes.txt -m cm.json --today glibc  # glibc's IFUNC pick\n"
	"  copyprof estimate -i copyprof.json --validate   # measures: calibrate --quick\n"
	"  copyprof estimate --prometheus http://prom:9090 --range 7d \\\n"
	"      --selector '{job=\"copyprof\"}' -m costmodels/   # one model per CPU\n"
	"\n"
	"Exit status: 0 ok, 1 runtime failure (unreadable input, no copy-family calls, a cost "
	"model without a needed implementation or cache state), 2 usage error.";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct estimate_args *a = state->input;
	char why[96];

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		state->child_inputs[1] = &a->cost;
		break;
	case OPT_HIST:
		a->hist = arg;
		break;
	case OPT_THRESHOLDS:
		if (est_thresholds_parse(arg, &a->run.o, why, sizeof(why)))
			argp_error(state, "--thresholds %s: %s", arg, why);
		break;
	case OPT_VALIDATE:
		a->validate = true;
		break;
	case OPT_MODEL_ONLY:
		a->run.model_only = true;
		break;
	case OPT_TODAY:
		if (est_today_add(&a->run.o, arg, why, sizeof(why)))
			argp_error(state, "--today %s: %s", arg, why);
		break;
	case OPT_PROMETHEUS:
		if (strncmp(arg, "http://", 7) && strncmp(arg, "https://", 8))
			argp_error(state, "--prometheus %s: give an http:// or https:// URL", arg);
		a->prom.url = arg;
		break;
	case OPT_SELECTOR:
		if (!fleet_selector_valid(arg, why, sizeof(why)))
			argp_error(state,
				   "--selector %s: %s; give label matchers in braces, e.g. "
				   "'{job=\"copyprof\",cpu_model=~\"AMD.*\"}'",
				   arg, why);
		a->prom.selector = arg;
		break;
	case OPT_RANGE:
		if (!fleet_range_valid(arg))
			argp_error(state,
				   "--range %s: give a Prometheus duration such as 1h, 90m or 7d",
				   arg);
		a->prom.range = arg;
		break;
	case OPT_SAVE_PROFILE:
		a->save_profile = arg;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s' (profiles are given with -i)", arg);
		break;
	case ARGP_KEY_END:
		if (a->prom.url && (a->common.nr_inputs || a->hist))
			argp_error(state, "--prometheus excludes -i and --hist");
		if ((a->prom.selector || a->prom.range || a->save_profile) && !a->prom.url)
			argp_error(state, "--selector, --range and --save-profile go with "
					  "--prometheus");
		if (!a->common.nr_inputs && !a->hist && !a->prom.url)
			argp_error(state, "give a profile with -i, a size table with --hist, or "
					  "--prometheus URL");
		if (!a->cost.nr_models && !a->validate)
			argp_error(state, "give a cost model with -m (make one with `copyprof "
					  "calibrate -o costmodel.json`; estimate itself times "
					  "nothing)");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* A -m folder: its *.json files, sorted; each input then needs its own CPU's model. */
static int expand_model_folder(struct estimate_args *a)
{
	size_t n;
	int err;

	if (a->cost.nr_models != 1)
		return 0;
	err = model_folder_list(a->cost.models[0], a->model_files, EST_MAX_MODELS, &n);
	if (err || !n)
		return err;
	memcpy(a->cost.models, a->model_files, n * sizeof(char *));
	a->cost.nr_models = n;
	a->run.match_cpu = true;
	return 0;
}

static int load(struct estimate_args *a, struct est_run *run)
{
	struct profile *p;
	int err;

	if (!a->prom.url && !a->cost.nr_models) {
		/* --validate without -m: calibrate --quick first, as the help says. */
		struct costmodel *m;

		err = est_run_read(run, &a->run, a->common.inputs, a->common.nr_inputs, a->hist);
		if (!err)
			err = calib_quick_for_inputs(run->ins, run->nr_ins, &run->opts.o, &m);
		return err ?: est_run_add_model(run, m, "(calibrate --quick, this run)");
	}
	if (!a->prom.url)
		return est_run_load(run, &a->run, a->common.inputs, a->common.nr_inputs, a->hist,
				    a->cost.models, a->cost.nr_models);
	if (!a->prom.range)
		a->prom.range = "1h";
	err = fleet_profile_fetch(&a->prom, &p);
	/* Sites that stopped counting in the range: said, and listed in --json. */
	if (!err)
		err = fleet_partial_fetch(&a->prom, &a->partial);
	if (!err && a->save_profile && (err = profile_write(p, a->save_profile))) {
		profile_free(p);
		p = NULL;
	}
	if (err) {
		memset(run, 0, sizeof(*run));
		return err;
	}
	/* What the commit paragraph names: the server, the range and the series. */
	snprintf(a->prom_name, sizeof(a->prom_name), "the fleet in %s (the increase over %s%s%s)",
		 a->prom.url, a->prom.range, a->prom.selector ? " of " : "",
		 a->prom.selector ?: "");
	err = est_run_load_profile(run, &a->run, p, a->prom_name, a->cost.models,
				   a->cost.nr_models);
	/* The saved profile is the mix that calibrate --mix measures (the hint names it). */
	if (!err && a->save_profile) {
		run->profile_paths = &a->save_profile;
		run->nr_profile_paths = 1;
	}
	return err;
}

/* --validate: each family replayed afresh on this CPU, into @vals (freed by the caller). */
static int validate(struct est_run *run, size_t i, struct est_report *r, struct mixmeas *vals)
{
	struct paired_opts po = { .cache = &run->opts.o.cache, .budget_s = 3, .cpu = r->m->cpu };
	size_t j;
	int err = 0;

	for (j = 0; j < r->nr_fam && !err; j++)
		err = paired_validate_family(&run->ins[i], &r->fam[j], &po, &vals[j]);
	return err;
}

int cmd_estimate(int argc, char **argv)
{
	struct argp common, cost;
	struct argp_child children[3] = { { 0 } };
	struct argp argp = { options, parse_opt, NULL, doc, children };
	struct estimate_args args = { 0 };
	struct mixmeas vals[EST_NR_FAMILIES] = { 0 };
	struct est_run run;
	json_object *jout = NULL;
	const char *folder; /* -m as given: expand_model_folder() replaces it */
	size_t i, j, done = 0;
	int err;

	est_options_default(&args.run.o);
	cmd_options_child(&common_options, &common, children);
	cmd_cost_child(&cost_options, &cost, &children[1]);
	argp_parse(&argp, argc, argv, 0, NULL, &args);
	folder = args.cost.models[0];
	args.run.o.family = args.cost.family;
	args.run.o.cache = args.cost.cache;
	args.run.o.at = args.cost.threshold;
	args.run.o.at_set = args.cost.threshold_set;
	err = expand_model_folder(&args);
	if (!err)
		err = load(&args, &run);
	if (!err && args.common.json)
		jout = json_object_new_array();
	for (i = 0; !err && i < run.nr_ins; i++) {
		struct est_report r;

		if (done && !args.common.json)
			printf("\n");
		err = est_run_input(&run, i, &r);
		/* A CPU without its own model in a -m folder is left out (est_run_input says so). */
		if (err == -ENOENT && args.run.match_cpu) {
			est_report_free(&r);
			err = 0;
			continue;
		}
		done++;
		if (!err && args.validate)
			err = validate(&run, i, &r, vals);
		if (!err && jout)
			json_object_array_add(jout, est_report_to_json(&r));
		else if (!err)
			est_print_text(stdout, &r, log_verbose);
		est_report_free(&r);
		for (j = 0; j < EST_NR_FAMILIES; j++)
			mixmeas_free(&vals[j]);
	}
	if (!err && jout) {
		json_object *doc = est_json_document(&run.opts.o.cache, jout);

		if (args.prom.url)
			json_object_object_add(doc, "partial_sites",
					       fleet_partials_to_json(&args.partial));

		jsonw_print(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
		json_object_put(doc);
	}
	json_object_put(jout);
	est_run_free(&run);
	fleet_partials_free(&args.partial);
	/* Said before the folder's file names are freed (args.models points at them). */
	if (!err && !done)
		p_err("no input had a cost model of its CPU in -m %s", folder);
	for (i = 0; i < EST_MAX_MODELS; i++)
		free(args.model_files[i]);
	if (!err && !done)
		return EXIT_RUNTIME;
	return err ? EXIT_RUNTIME : EXIT_OK;
}
