// SPDX-License-Identifier: GPL-2.0
/* cmd_calibrate.c: `copyprof calibrate`: measure the asm-ref replicas into a cost model */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "measure/calib_plot.h"
#include "measure/calib_distance.h"
#include "measure/calib_session.h"
#include "measure/calib_table.h"
#include "cmd_cost_options.h"
#include "cmd_options.h"
#include "commands.h"
#include "costmodel/costmodel.h"
#include "costmodel/mixmeas_pool.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/outfile_lock.h"
#include "lib/stop.h"
#include "estimate/estimate_cost.h"
#include "estimate/estimate_family.h"
#include "estimate/estimate_footprint.h"
#include "estimate/estimate_run.h"
#include "measure/paired_inputs.h"

struct calibrate_args {
	struct cmd_options common;    /* -i, -o, --json, -v */
	struct cmd_cost_options cost; /* --family, --threshold */
	struct calib_plan plan;
	const char *plot;
	const char *impl_list;
	bool table, sizes_given, runs_given, cpu_given, measure_opt;
	bool distance; /* --distance: the curves again at (dst - src) mod 4096 of 32 and 4064 */
	const char *measure_opt_name;
	const char *mix[EST_MAX_PROFILES]; /* --mix: profiles whose corrections to measure */
	size_t nr_mix;
	const char *hist;
	struct est_run_opts mix_opts;
	struct paired_opts paired; /* --mix-budget, --mix-chunk, --mix-ws, --seed */
	bool site_budget_given;	   /* --mix-site-budget */
	bool one_condition;	   /* --mix-cache or --mix-ws: that condition, not the matrix */
	unsigned int sittings;	   /* --sittings: the mixes measured this many times ... */
	double sitting_gap_s;	   /* ... this many seconds apart */
	const char *sitting_opt;   /* the one of them given, for "applies to --mix" */
};

enum {
	OPT_IMPL = 0x100,
	OPT_SIZES,
	OPT_CACHE,
	OPT_ALIGN,
	OPT_CPU,
	OPT_RUNS,
	OPT_QUICK,
	OPT_TABLE,
	OPT_PLOT,
	OPT_MIX,
	OPT_HIST,
	OPT_MIX_CACHE,
	OPT_THRESHOLDS,
	OPT_BUDGET,
	OPT_MIX_BUDGET,
	OPT_MIX_SITE_BUDGET,
	OPT_MIX_CHUNK,
	OPT_MIX_WS,
	OPT_SEED,
	OPT_TODAY,
	OPT_SITTINGS,
	OPT_SITTING_GAP,
	OPT_DISTANCE,
};

static const struct cmd_options_spec common_options = {
	.input_arg = "FILE",
	.input_help = "Read this cost model instead of measuring (--table, --plot)",
	.output_help = "Cost model to write (default costmodel.json, - for stdout)",
};

static const struct cmd_cost_spec cost_options = {
	.threshold_help = "erms_threshold's T in bytes (default 2048)",
	.family_help = "--mix/--hist: only this family (as estimate)",
};

static const struct argp_option options[] = {
	{ "impl", OPT_IMPL, "LIST", 0,
	  "Implementations, families (memcpy, memmove, clear_user, memset) or all (default all)" },
	{ "sizes", OPT_SIZES, "LIST", 0,
	  "Lengths in bytes, K/M/G suffixes, ranges A-B (default 1-256 and bucket edges to 1M)" },
	{ "cache", OPT_CACHE, "STATE", 0, "warm, src-flushed, dst-flushed, a comma list, or all" },
	{ "align", OPT_ALIGN, "D,S", 0, "Destination, source offsets from a page (default 0,0)" },
	{ "cpu", OPT_CPU, "N", 0,
	  "CPU to pin to (default: the one it starts on; --mix/--hist: before each batch of "
	  "rounds, the quietest of those it may run on)" },
	{ "runs", OPT_RUNS, "N", 0,
	  "Runs every point gets (default 5, --quick 3); noisy points get more, up to 10 times as "
	  "many, until their 95% interval is within 2% or the budget is spent" },
	{ "budget", OPT_BUDGET, "SECONDS", 0,
	  "Time after which no more runs are added to noisy points (default 150, --quick 20)" },
	{ "quick", OPT_QUICK, NULL, 0, "15 sizes from 8 B to 1 MiB, 3 runs, fewer samples" },
	{ "distance", OPT_DISTANCE, NULL, 0,
	  "Also the pointer-distance axis: every curve but the dispatch's again, warm, with the "
	  "destination 32 B ahead of the source in its page and 32 B behind (what estimate "
	  "costs a profile's recorded distances with)" },
	{ "table", OPT_TABLE, NULL, 0, "Print the seed patch's tables (short copies; 4 KiB)" },
	{ "plot", OPT_PLOT, "FILE.svg", 0, "Draw cost against length as an SVG" },
	{ "mix", OPT_MIX, "PROFILE", 0,
	  "Also measure this profile's own mix, paired: its lengths replayed through today's "
	  "code and every candidate policy in the same rounds; stored in the model, where "
	  "estimate finds it (repeat: merged, as estimate -i does); with -i, adds it to that "
	  "model" },
	{ "hist", OPT_HIST, "FILE", 0, "... or this size table's (as estimate --hist)" },
	{ "mix-cache", OPT_MIX_CACHE, "STATE", 0,
	  "--mix/--hist: measure in this cache state alone, as estimate --cache will ask for it "
	  "(warm, src-flushed, dst-flushed or mixed=W,S,D), not in the default matrix: warm at a "
	  "quarter of L2 a side, warm at a quarter of L1d, cold destinations; or, where the "
	  "profile records its footprint, that quarter of L2 and warm within the footprint's "
	  "working set (docs/calibrate.md#conditions)" },
	{ "thresholds", OPT_THRESHOLDS, "LIST", 0,
	  "--mix/--hist: the candidate thresholds (as estimate --thresholds)" },
	{ "today", OPT_TODAY, "IMPL", 0,
	  "--mix/--hist: today's code of IMPL's family is this replica (as estimate --today; "
	  "repeat for other families)" },
	{ "mix-budget", OPT_MIX_BUDGET, "SECONDS", 0,
	  "--mix/--hist: seconds of rounds per family (default 10, --quick 3), split evenly "
	  "between the conditions (at least 1 s each); more, up to 4 times as long, until 100 "
	  "rounds found the core quiet and the A/A control's interval lies within +-0.5 points" },
	{ "mix-site-budget", OPT_MIX_SITE_BUDGET, "SECONDS", 0,
	  "--mix: seconds for the hottest sites' own mixes in all, per family, after the whole "
	  "mix (default as --mix-budget; 0: none); which sites: docs/calibrate.md#per-site-mixes, "
	  "the rest are shown as not measured" },
	{ "mix-chunk", OPT_MIX_CHUNK, "CALLS", 0,
	  "--mix/--hist: calls per round (default 4096, fewer for long copies)" },
	{ "mix-ws", OPT_MIX_WS, "BYTES", 0,
	  "--mix/--hist: measure at this warm working set per side alone, K/M suffixes (with "
	  "--mix-cache's state, default warm), not in the default matrix" },
	{ "seed", OPT_SEED, "N", 0, "--mix/--hist: the seed the calls are drawn with" },
	{ "sittings", OPT_SITTINGS, "N", 0,
	  "--mix/--hist: measure the mixes N times (default 1, at most 8), --sitting-gap apart: "
	  "estimate pools the sittings, so its intervals span the machine's states they met" },
	{ "sitting-gap", OPT_SITTING_GAP, "SECONDS", 0,
	  "--sittings: the pause between sittings (default 120; states of a shared host last "
	  "minutes)" },
	{},
};

static const char doc[] =
	"Measure what each asm-ref replica of the kernel's copy routines costs per "
	"call, by length, on this CPU: pinned, bytes checked first, warm or flushed "
	"caches, several runs (median and spread). Writes a cost model "
	"(docs/costmodel-format.md); prints the seed patch's tables; draws an SVG.\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof calibrate --quick --table      # seconds; writes costmodel.json\n"
	"  copyprof calibrate --impl memcpy_orig,movsb --cache warm --plot cost.svg\n"
	"  copyprof calibrate --impl erms_threshold --threshold 1024 --sizes 512-4K\n"
	"  copyprof calibrate -i cooperlake-8321hc-seed.json --table  # seed tables\n"
	"  copyprof calibrate --quick --mix profile.json -o cm.json  # + its mix\n"
	"  copyprof calibrate -i cm.json --mix profile.json -o cm.json\n"
	"  copyprof calibrate -i cm.json --hist Fleet.txt --mix-budget 30 -o cm.json\n"
	"  copyprof calibrate -i cm.json --mix profile.json --sittings 2  # for a commit\n"
	"  copyprof calibrate -i cm.json --mix p.json --mix-ws 8K -o cm.json  # 1 state\n"
	"\n"
	"Exit status: 0 ok, 1 runtime failure (CPU unavailable, wrong bytes, "
	"interrupted, a batch's process that stopped answering, another calibrate "
	"writing the same -o; no file is written), 2 usage error.";

static void known_impls(char *buf, size_t len)
{
	size_t i, off = 0;

	for (i = 0; i < asmref_count() && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
					asmref_get(i)->name);
}

static bool add_impl(struct calib_plan *plan, const struct asmref_impl *impl)
{
	size_t i;

	for (i = 0; i < plan->nr_impls; i++)
		if (plan->impls[i] == impl)
			return true;
	plan->impls[plan->nr_impls++] = impl;
	return true;
}

/* Names, family names or "all", in the registry's order for families and "all". */
static int parse_impls(struct argp_state *state, struct calib_plan *plan, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL, names[1024];
	size_t i;
	bool hit;

	plan->impls = calloc(asmref_count(), sizeof(*plan->impls));
	if (!copy || !plan->impls)
		return ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct asmref_impl *impl = asmref_find(tok);

		if (impl) {
			if (!asmref_usable(impl)) {
				p_err("%s needs %s, which this CPU lacks", impl->name,
				      asmref_needs_text(impl->needs, names, sizeof(names)));
				exit(EXIT_RUNTIME);
			}
			add_impl(plan, impl);
			continue;
		}
		hit = false;
		for (i = 0; i < asmref_count(); i++) {
			if (!strcmp(tok, "all") || !strcmp(tok, asmref_get(i)->family)) {
				hit = true;
				/* A replica this CPU cannot run would die of SIGILL: left out, said. */
				if (!asmref_usable(asmref_get(i)))
					p_info("%s left out: it needs %s, which this CPU lacks",
					       asmref_get(i)->name,
					       asmref_needs_text(asmref_get(i)->needs, names,
								 sizeof(names)));
				else
					add_impl(plan, asmref_get(i));
			}
		}
		if (!hit) {
			known_impls(names, sizeof(names));
			argp_error(state,
				   "--impl: unknown implementation '%s'; known: %s; families: "
				   "memcpy, memmove, clear_user, memset; or all",
				   tok, names);
		}
	}
	free(copy);
	if (!plan->nr_impls)
		argp_error(state, "--impl: give at least one implementation");
	return 0;
}

static void parse_caches(struct argp_state *state, struct calib_plan *plan, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int c;

	memset(plan->caches, 0, sizeof(plan->caches));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			for (c = 0; c < COSTMODEL_NR_CACHES; c++)
				plan->caches[c] = true;
			continue;
		}
		c = costmodel_cache_parse(tok);
		if (c < 0)
			argp_error(state,
				   "--cache: unknown cache state '%s'; use warm, src-flushed, "
				   "dst-flushed or all",
				   tok);
		plan->caches[c] = true;
	}
	free(copy);
	plan->cache_given = true;
}

static unsigned long long parse_count(struct argp_state *state, const char *opt, const char *arg,
				      unsigned long long min, unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v < min || v > max)
		argp_error(state, "%s %s: give a whole number from %llu to %llu", opt, arg, min,
			   max);
	return v;
}

/* "256K", "4M", "1048576": 4 KiB to 1 GiB. */
static unsigned long long parse_size(struct argp_state *state, const char *opt, const char *arg)
{
	struct est_options tmp;
	char why[96];

	if (est_thresholds_parse(arg, &tmp, why, sizeof(why)) || tmp.nr_thresholds != 1 ||
	    tmp.thresholds[0] < 4096 || tmp.thresholds[0] > (1ULL << 30))
		argp_error(state, "%s %s: give a size from 4K to 1G", opt, arg);
	return tmp.thresholds[0];
}

static void measure_only(struct calibrate_args *a, const char *name)
{
	a->measure_opt = true;
	a->measure_opt_name = name;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct calibrate_args *a = state->input;
	struct calib_plan *plan = &a->plan;
	unsigned int d, s;
	char why[160], extra;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		state->child_inputs[1] = &a->cost;
		break;
	case OPT_IMPL:
		a->impl_list = arg;
		return parse_impls(state, plan, arg);
	case OPT_SIZES:
		calib_sizes_free(&plan->sizes);
		if (calib_sizes_parse(arg, &plan->sizes, why, sizeof(why)))
			argp_error(state, "--sizes %s: %s", arg, why);
		a->sizes_given = true;
		measure_only(a, "--sizes");
		break;
	case OPT_CACHE:
		parse_caches(state, plan, arg);
		break;
	case OPT_ALIGN:
		if (sscanf(arg, "%u,%u%c", &d, &s, &extra) != 2 || d > 4095 || s > 4095)
			argp_error(state, "--align %s: give D,S, two offsets from 0 to 4095", arg);
		plan->align_dst = d;
		plan->align_src = s;
		measure_only(a, "--align");
		break;
	case OPT_CPU:
		plan->cpu = (int)parse_count(state, "--cpu", arg, 0, 1 << 20);
		a->cpu_given = true; /* the curves' and the mix's: either measurement */
		break;
	case OPT_RUNS:
		plan->runs = (int)parse_count(state, "--runs", arg, 1, 1000);
		a->runs_given = true;
		measure_only(a, "--runs");
		break;
	case OPT_BUDGET:
		plan->budget_s = (double)parse_count(state, "--budget", arg, 0, 86400);
		measure_only(a, "--budget");
		break;
	case OPT_QUICK:
		plan->quick = true;
		measure_only(a, "--quick");
		break;
	case OPT_TABLE:
		a->table = true;
		break;
	case OPT_DISTANCE:
		a->distance = true;
		measure_only(a, "--distance");
		break;
	case OPT_PLOT:
		a->plot = arg;
		break;
	case OPT_MIX:
		if (a->nr_mix == EST_MAX_PROFILES)
			argp_error(state, "at most %d --mix profiles", EST_MAX_PROFILES);
		a->mix[a->nr_mix++] = arg;
		break;
	case OPT_HIST:
		a->hist = arg;
		break;
	case OPT_MIX_CACHE:
		if (est_cache_parse(arg, &a->mix_opts.o.cache))
			argp_error(state, "--mix-cache %s: " EST_CACHE_HINT, arg);
		a->one_condition = true;
		break;
	case OPT_THRESHOLDS:
		if (est_thresholds_parse(arg, &a->mix_opts.o, why, sizeof(why)))
			argp_error(state, "--thresholds %s: %s", arg, why);
		break;
	case OPT_TODAY:
		if (est_today_add(&a->mix_opts.o, arg, why, sizeof(why)))
			argp_error(state, "--today %s: %s", arg, why);
		break;
	case OPT_MIX_BUDGET:
		a->paired.budget_s = (double)parse_count(state, "--mix-budget", arg, 1, 86400);
		break;
	case OPT_MIX_SITE_BUDGET:
		a->paired.site_budget_s =
			(double)parse_count(state, "--mix-site-budget", arg, 0, 86400);
		a->site_budget_given = true;
		break;
	case OPT_MIX_CHUNK:
		a->paired.chunk_calls = parse_count(state, "--mix-chunk", arg, 16, 1 << 20);
		break;
	case OPT_MIX_WS:
		a->paired.ws_bytes = parse_size(state, "--mix-ws", arg);
		a->one_condition = true;
		break;
	case OPT_SEED:
		a->paired.seed = parse_count(state, "--seed", arg, 1, UINT64_MAX - 1);
		break;
	case OPT_SITTINGS:
		a->sittings = (unsigned int)parse_count(state, "--sittings", arg, 1,
							MIXMEAS_MAX_SITTINGS);
		a->sitting_opt = "--sittings";
		break;
	case OPT_SITTING_GAP:
		a->sitting_gap_s = (double)parse_count(state, "--sitting-gap", arg, 0, 86400);
		a->sitting_opt = "--sitting-gap";
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (a->cost.threshold_set) {
			if (a->cost.threshold > 1ULL << 40)
				argp_error(state, "--threshold: give a length from 0 to %llu",
					   1ULL << 40);
			plan->threshold = a->cost.threshold;
			measure_only(a, "--threshold");
		}
		a->mix_opts.o.family = a->cost.family;
		if (a->sitting_opt && !a->nr_mix && !a->hist)
			argp_error(state, "%s applies to --mix/--hist", a->sitting_opt);
		if (a->site_budget_given && !a->nr_mix)
			argp_error(state, "--mix-site-budget applies to --mix (a profile's sites)");
		if (a->common.input && (a->nr_mix || a->hist)) {
			if (a->measure_opt)
				argp_error(state,
					   "%s applies to a measurement; -i reads a model "
					   "(to which --mix adds corrections)",
					   a->measure_opt_name);
			break;
		}
		if (a->cpu_given)
			measure_only(a, "--cpu");
		if (a->common.output && !a->measure_opt)
			measure_only(a, "-o");
		if (a->common.input && a->measure_opt)
			argp_error(state, "%s applies to a measurement; -i reads a model instead",
				   a->measure_opt_name);
		if (a->common.input && !a->table && !a->plot)
			argp_error(state,
				   "-i reads a model for --table or --plot: give one of them");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The plot draws the --impl choice (all by default) in the --cache states (warm by default). */
static bool plot_wants(const struct costmodel_curve *c, void *ctx)
{
	const struct calibrate_args *a = ctx;
	size_t i;

	if (!a->plan.caches[c->cache])
		return false;
	if (!a->impl_list)
		return true;
	for (i = 0; i < a->plan.nr_impls; i++)
		if (!strcmp(a->plan.impls[i]->name, c->name))
			return true;
	return false;
}

static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (i = 0; s && i < argc; i++) {
		strcat(s, argv[i]);
		if (i + 1 < argc)
			strcat(s, " ");
	}
	return s;
}

static int outputs(struct calibrate_args *a, const struct costmodel *m)
{
	int err;

	if (a->table)
		calib_table_print(stdout, m);
	if (!a->plot)
		return EXIT_OK;
	if (!a->plan.cache_given) {
		memset(a->plan.caches, 0, sizeof(a->plan.caches));
		a->plan.caches[COSTMODEL_WARM] = true;
	}
	err = calib_plot_svg(m, a->plot, plot_wants, a);
	if (err == -ENOENT)
		p_warn("%s: no curve of the model matches --impl/--cache; the SVG says so",
		       a->plot);
	else if (err)
		return EXIT_RUNTIME;
	return EXIT_OK;
}

/* --mix/--hist, read before anything is measured: a bad input fails at once. */
static int read_mix(struct calibrate_args *a, struct est_run *run)
{
	if (!a->nr_mix && !a->hist)
		return 0;
	return est_run_read(run, &a->mix_opts, a->mix, a->nr_mix, a->hist);
}

/* What the paired entries say they measured: "btrfs.json", "--hist Fleet.txt", ... */
static void mix_name(const struct calibrate_args *a, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < a->nr_mix && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " + " : "", a->mix[i]);
	if (a->hist && n < len)
		snprintf(buf + n, len - n, "%s--hist %s", n ? " + " : "", a->hist);
}

/* --mix/--hist: each input's mix measured, paired, into @m (docs/estimate.md). */
static int measure_mix(struct calibrate_args *a, struct est_run *run, struct costmodel *m,
		       const char *name)
{
	struct paired_condition c[PAIRED_MAX_CONDITIONS];
	size_t n = 1;
	char what[512];
	int err;

	if (a->one_condition)
		c[0] = (struct paired_condition){ run->opts.o.cache, a->paired.ws_bytes };
	else
		n = paired_matrix_footprint(c, paired_matrix_default(c),
					    est_footprint_bytes_all(run->ins, run->nr_ins));
	run->models[0] = m;
	run->model_names[0] = name;
	run->nr_models = 1;
	a->paired.cache = &run->opts.o.cache;
	if (!a->paired.budget_s)
		a->paired.budget_s = a->plan.quick ? 3 : 10;
	if (!a->site_budget_given)
		a->paired.site_budget_s = a->paired.budget_s;
	if (!a->paired.seed)
		a->paired.seed = 0x9e3779b97f4a7c15ULL;
	a->paired.cpu = a->plan.cpu;
	mix_name(a, what, sizeof(what));
	err = paired_measure_inputs(run, &a->paired, c, n, what, a->sittings, a->sitting_gap_s);
	run->models[0] = NULL; /* the caller's */
	run->nr_models = 0;
	if (err == -EINTR)
		p_err("interrupted by SIG%s: no cost model written",
		      sigabbrev_np(stop_signal()) ?: "?");
	return err;
}

/*
 * A dispatch that costs less than nothing is a calibration gone wrong (the machine changed
 * speed between the curves): measured once more, then refused (docs/calibrate.md).
 */
static int check_dispatch(const struct calib_plan *plan, struct costmodel **m)
{
	char why[256];
	int err;

	if (!est_model_check_dispatch(*m, why, sizeof(why)))
		return 0;
	p_warn("%s: physically impossible; measuring again", why);
	costmodel_free(*m);
	*m = NULL;
	err = calib_session_run(plan, m);
	if (err || !est_model_check_dispatch(*m, why, sizeof(why)))
		return err;
	p_err("%s again: refused, no cost model written (stop other work on this CPU, or pin "
	      "to an idle one with --cpu)",
	      why);
	return -EDOM;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_args args = {
		.plan = { .cpu = -1, .threshold = ASMREF_ERMS_THRESHOLD_DEFAULT },
		.sittings = 1,
		.sitting_gap_s = 120,
	};
	struct argp common, cost;
	struct argp_child children[3] = { { 0 } };
	struct argp argp = { options, parse_opt, NULL, doc, children };
	struct costmodel *m = NULL;
	struct outfile_lock *lock = NULL;
	struct est_run run = { 0 };
	int err, c, rc = EXIT_RUNTIME;

	for (c = 0; c < COSTMODEL_NR_CACHES; c++)
		args.plan.caches[c] = true;
	est_options_default(&args.mix_opts.o);
	cmd_options_child(&common_options, &common, children);
	cmd_cost_child(&cost_options, &cost, &children[1]);
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	if (!args.common.output)
		args.common.output = args.common.input && (args.nr_mix || args.hist)
					     ? args.common.input
					     : "costmodel.json";
	/*
	 * A model is written: a second calibrate writing the same file (or measuring into the
	 * model it reads, -i cm.json -o cm.json) meanwhile is refused, never silently replaced.
	 */
	if ((!args.common.input || args.nr_mix || args.hist) &&
	    outfile_lock(args.common.output, "calibrate", &lock))
		goto cleanup;
	if (read_mix(&args, &run))
		goto cleanup;
	if (args.common.input) {
		if (costmodel_read(args.common.input, &m))
			goto cleanup;
		if (args.nr_mix || args.hist) {
			char why[256];

			if (!paired_model_is_here(m, why, sizeof(why))) {
				p_err("calibrate --mix: %s: %s; measure with a model calibrated on "
				      "this CPU",
				      args.common.input, why);
				goto cleanup;
			}
			if (strcmp(args.common.output, "-") &&
			    strcmp(args.common.output, args.common.input) &&
			    outfile_check(args.common.output))
				goto cleanup;
			stop_install();
			if (measure_mix(&args, &run, m, args.common.input) ||
			    costmodel_write(m, args.common.output))
				goto cleanup;
			if (strcmp(args.common.output, "-"))
				p_info("wrote %s", args.common.output);
		}
		rc = outputs(&args, m);
		goto cleanup;
	}

	if (outfile_check(args.common.output))
		goto cleanup;
	if (!args.impl_list && parse_impls(NULL, &args.plan, "all"))
		goto cleanup;
	if (!args.runs_given)
		args.plan.runs = args.plan.quick ? 3 : 5;
	args.plan.max_runs = 10 * args.plan.runs;
	if (!args.plan.budget_s)
		args.plan.budget_s = args.plan.quick ? 20 : 150;
	if (!args.sizes_given && (args.plan.quick ? calib_sizes_quick(&args.plan.sizes)
						  : calib_sizes_default(&args.plan.sizes)))
		goto cleanup;
	args.plan.command = join_args(argc, argv);
	stop_install();
	err = calib_session_run(&args.plan, &m);
	if (!err)
		err = check_dispatch(&args.plan, &m);
	if (!err && args.distance)
		err = calib_distance_run(&args.plan, m);
	if (err == -EINTR) {
		p_err("interrupted by SIG%s before the end: no cost model written",
		      sigabbrev_np(stop_signal()) ?: "?");
		goto cleanup;
	}
	if (err)
		goto cleanup;
	if ((args.nr_mix || args.hist) && measure_mix(&args, &run, m, args.common.output))
		goto cleanup;
	if (costmodel_write(m, args.common.output))
		goto cleanup;
	if (strcmp(args.common.output, "-"))
		p_info("wrote %s", args.common.output);
	rc = outputs(&args, m);
cleanup:
	outfile_unlock(lock);
	est_run_free(&run);
	costmodel_free(m);
	calib_sizes_free(&args.plan.sizes);
	free(args.plan.impls);
	free(args.plan.command);
	return rc;
}
