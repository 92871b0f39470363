// SPDX-License-Identifier: GPL-2.0
/* cmd_flamegraph.c: `copyprof flamegraph`: a profile or folded stacks as an interactive SVG */
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_cost_options.h"
#include "cmd_options.h"
#include "commands.h"
#include "estimate/estimate_family.h"
#include "estimate/estimate_options.h"
#include "estimate/estimate_run.h"
#include "estimate/estimate_verdict.h"
#include "export/flame_cost.h"
#include "export/flame_diff.h"
#include "export/flame_profile.h"
#include "folded.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "svg.h"
#include "asmref.h"

struct flamegraph_args {
	struct cmd_options common;    /* -i, -o, --json, -v */
	struct cmd_cost_options cost; /* -m, --cache, --family, --threshold */
	const char *folded, *title;
	struct est_options today; /* --today IMPL (its today[] only), as for estimate */
	int weight;		  /* -1: the profile's default */
	double width;
	bool diff;	      /* --diff BEFORE AFTER */
	bool no_comm;	      /* --no-comm */
	enum diff_norm norm;  /* --totals, --rates; else like with like (diff.md) */
	const char *files[2]; /* BEFORE, AFTER */
	size_t nr_files;
};

enum {
	OPT_FOLDED = 0x100,
	OPT_WEIGHT,
	OPT_TODAY,
	OPT_TITLE,
	OPT_WIDTH,
	OPT_DIFF,
	OPT_TOTALS,
	OPT_RATES,
	OPT_NO_COMM,
};

static const struct cmd_options_spec common_options = {
	.input_arg = "PROFILE",
	.input_help = "Profile to draw (from record, import-perf or merge)",
	.output_help = "SVG to write (default: standard output)",
};

static const struct cmd_cost_spec cost_options = {
	.model_help = "Cost model from calibrate, for --weight time and --threshold",
	.threshold_help =
		"The threshold view: widths are time today, colours what a paired "
		"measurement (calibrate --mix) says the string op from T saves (green) or "
		"costs (red) against today; hatched where not measured (needs -m)",
	.cache_help = "Cache state of the costs, as for estimate (default warm)",
	.family_help = "Only sites of memcpy, memmove, clear_user or memset",
};

static const struct argp_option options[] = {
	{ "folded", OPT_FOLDED, "FILE", 0,
	  "Folded stacks to draw instead ('-': standard input), as FlameGraph's stackcollapse "
	  "scripts write them: 'root;...;leaf COUNT' per line" },
	{ "weight", OPT_WEIGHT, "WHAT", 0,
	  "What widths count: samples (sampled profiles' stacks; their default), calls (the "
	  "default otherwise), bytes, or time (ns today, needs -m)" },
	{ "today", OPT_TODAY, "IMPL", 0,
	  "Today's code is this replica, as for estimate (needed for a uprobe on a function "
	  "copyprof does not replicate)" },
	{ "title", OPT_TITLE, "TEXT", 0, "Title of the graph" },
	{ "width", OPT_WIDTH, "PX", 0, "Image width (default 1200)" },
	{ "diff", OPT_DIFF, 0, 0,
	  "A differential flame graph of two profiles, BEFORE AFTER (arguments): widths are "
	  "AFTER's, colours the change (red grew, blue shrank, scaled to the data)" },
	{ "totals", OPT_TOTALS, 0, 0,
	  "With --diff: compare totals per recording (the default for two recordings of a "
	  "command that ran to its end), as copyprof diff --totals" },
	{ "no-comm", OPT_NO_COMM, 0, 0,
	  "Sampled stacks without their process's name as the root frame (which "
	  "stackcollapse-perf gives them; profiles from before it have none)" },
	{ "rates", OPT_RATES, 0, 0,
	  "With --diff: compare rates per second of recording (the default otherwise)" },
	{},
};

static const char doc[] =
	"Draw a flame graph: a self-contained SVG (hover for details, click to zoom, Search or "
	"Ctrl-F to highlight frames) of a profile's sampled stacks; of its sites, their callers "
	"and their copy lengths, as wide as their calls, bytes or time; or of FlameGraph's "
	"folded stacks. With --threshold T, the width is time today and the colour is what the "
	"paired measurement of the frame's mix (a site's own, or the whole) says the string op "
	"from T saves (green) or costs (red); hatched: not measured (docs/flamegraph.md).\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof flamegraph -i btrfs.json -o btrfs.svg\n"
	"  copyprof flamegraph -i sampled.json -o stacks.svg          # samples by stack\n"
	"  copyprof flamegraph -i btrfs.json --weight bytes -o bytes.svg\n"
	"  copyprof flamegraph -i btrfs.json -m cm.json --threshold 1024 -o t1024.svg\n"
	"  perf script | stackcollapse-perf.pl | \\\n"
	"      copyprof flamegraph --folded - > perf.svg\n"
	"  copyprof flamegraph --diff before.json after.json -o diff.svg\n"
	"\n"
	"Exit status: 0 SVG written, 1 unreadable or empty input (an SVG that says what went "
	"wrong is still written), a cost model without a needed curve, or the SVG could not be "
	"written; 2 usage error.";

static error_t parse_end(struct flamegraph_args *a, struct argp_state *state)
{
	const struct cmd_cost_options *c = &a->cost;

	if (a->diff) {
		if (a->nr_files != 2 || a->common.input || a->folded)
			argp_error(state, "--diff takes two profiles as arguments: BEFORE AFTER");
		if (c->model || c->threshold_set || a->weight == FLAME_TIME || c->cache_set)
			argp_error(state, "the differential view weighs calls, bytes or samples: "
					  "drop -m, --threshold and --cache (copyprof diff -m "
					  "compares modelled time)");
		return 0;
	}
	if (a->nr_files)
		argp_error(state,
			   "unexpected argument '%s' (the input is given with -i or --folded, or "
			   "two with --diff)",
			   a->files[0]);
	if (a->norm)
		argp_error(state, "--totals and --rates apply to --diff");
	if (!a->common.input == !a->folded)
		argp_error(state, "give a profile with -i or folded stacks with --folded");
	if (a->folded && (a->weight >= 0 || c->model || c->threshold_set || c->family >= 0 ||
			  c->cache_set || a->no_comm))
		argp_error(state,
			   "--weight, -m, --threshold, --family, --cache and --no-comm apply "
			   "to profiles (-i); folded stacks are drawn as they are");
	if (c->threshold_set && a->weight >= 0 && a->weight != FLAME_TIME)
		argp_error(state, "the threshold view is weighted by time: drop --weight %s",
			   flame_weight_name(a->weight));
	if ((c->threshold_set || a->weight == FLAME_TIME) && !c->model)
		argp_error(state, "%s needs a cost model: give -m (copyprof calibrate writes one)",
			   c->threshold_set ? "--threshold" : "--weight time");
	if (c->cache_set && !c->model)
		argp_error(state, "--cache applies to costs: give -m");
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct flamegraph_args *a = state->input;
	char *end;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		state->child_inputs[1] = &a->cost;
		break;
	case OPT_FOLDED:
		a->folded = arg;
		break;
	case OPT_WEIGHT:
		a->weight = flame_weight_parse(arg);
		if (a->weight < 0)
			argp_error(state, "--weight %s: give samples, calls, bytes or time", arg);
		break;
	case OPT_TODAY: {
		char why[160];

		if (est_today_add(&a->today, arg, why, sizeof(why)))
			argp_error(state, "--today %s: %s", arg, why);
		break;
	}
	case OPT_TITLE:
		a->title = arg;
		break;
	case OPT_WIDTH:
		a->width = strtod(arg, &end);
		if (*end || !(a->width >= 200 && a->width <= 100000))
			argp_error(state, "--width %s: give a width in px from 200 to 100000", arg);
		break;
	case OPT_DIFF:
		a->diff = true;
		break;
	case OPT_NO_COMM:
		a->no_comm = true;
		break;
	case OPT_TOTALS:
	case OPT_RATES:
		if (a->norm && a->norm != (key == OPT_TOTALS ? DIFF_NORM_TOTALS : DIFF_NORM_RATES))
			argp_error(state, "--totals and --rates exclude each other");
		a->norm = key == OPT_TOTALS ? DIFF_NORM_TOTALS : DIFF_NORM_RATES;
		break;
	case ARGP_KEY_ARG:
		if (a->nr_files == 2)
			argp_error(state, "unexpected argument '%s'", arg);
		a->files[a->nr_files++] = arg;
		break;
	case ARGP_KEY_END:
		return parse_end(a, state);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return !strcmp(path, "-") ? "standard input" : slash ? slash + 1 : path;
}

/* --folded: every line through the one parser; malformed lines are skipped and counted. */
static int read_folded(const struct flamegraph_args *a, struct fg_tree *t, char *sub, size_t len)
{
	bool in = !strcmp(a->folded, "-");
	struct folded_stats st = { 0 };
	FILE *f = in ? stdin : fopen(a->folded, "r");
	int err;

	if (!f) {
		err = -errno;
		p_err("cannot read folded stacks %s: %s", a->folded, strerror(errno));
		return err;
	}
	err = folded_read(f, in ? "standard input" : a->folded, t, &st);
	if (!in)
		fclose(f);
	if (err)
		return err; /* said by folded_read() */
	if (st.malformed)
		p_warn("%s: %zu malformed line(s) skipped (first, line %zu: %s: '%s')",
		       base_name(a->folded), st.malformed, st.first_bad, st.first_bad_why,
		       st.first_bad_text);
	if (!(st.total > 0)) {
		p_err("%s has no folded stacks ('frame;frame;... COUNT' lines with a count above "
		      "0): "
		      "%zu line(s), %zu malformed",
		      base_name(a->folded), st.lines, st.malformed);
		return -EINVAL;
	}
	snprintf(sub, len, "%zu stacks, %.15g samples%s", st.stacks, st.total,
		 st.malformed ? "; malformed lines skipped (see stderr)" : "");
	return 0;
}

/*
 * estimate's verdict for the profile and model, the same sentence as estimate prints
 * (docs/estimate.md#the-verdict): "; verdict (memcpy): T=512 saves ...", or nothing; and in
 * @corr, where the verdicts come from: the frames are always modelled, a verdict from the
 * paired measurement the model stores for this mix (calibrate --mix) where there is one. @run
 * is the estimate the frames were costed from: its profile and model, read once.
 */
static void verdict_of(const struct flamegraph_args *a, struct est_run *run, char *buf, size_t len,
		       char *corr, size_t clen, struct flame_costs *fc, struct fg_svg_opts *o)
{
	struct est_report r = { 0 };
	size_t i, n = 0, c = 0;
	const char *why = NULL;

	buf[0] = '\0';
	corr[0] = '\0';
	if (run->nr_ins && !est_run_input(run, 0, &r)) {
		for (i = 0; i < r.nr_fam && n < len; i++) {
			char v[EST_VERDICT_TEXT_LEN];

			if (r.fam[i].best < 0)
				continue;
			est_verdict_text(&r.fam[i], v, sizeof(v));
			n += (size_t)snprintf(buf + n, len - n, "; verdict (%s): %s",
					      est_family(r.fam[i].family)->name, v);
		}
		if (a->cost.threshold_set && flame_costs_measured(fc, &r))
			p_warn("no memory for the frames' measurements: drawn not measured");
		for (i = 0; i < r.nr_fam && c < clen; i++) {
			if (r.fam[i].meas && est_verdict(&r.fam[i]) == EST_VERDICT_DEPENDS)
				c += (size_t)snprintf(corr + c, clen - c,
						      "%s%s measured in %zu conditions that read "
						      "differently: no frame coloured as measured",
						      c ? ", " : "",
						      est_family(r.fam[i].family)->name,
						      r.fam[i].nr_cells);
			else if (r.fam[i].meas)
				c += (size_t)snprintf(corr + c, clen - c,
						      "%s%s's verdict measured (a paired replay "
						      "of this mix)",
						      c ? ", " : "",
						      est_family(r.fam[i].family)->name);
			else if (!why && r.fam[i].meas_why[0])
				why = r.fam[i].meas_why;
		}
	}
	/* A frame is coloured by its site's own measurement, or not at all (flame_costs_paint()). */
	if (c && c < clen && a->cost.threshold_set)
		snprintf(corr + c, clen - c,
			 "; a site's frames from its own measurement (calibrate --mix), "
			 "hatched where not measured");
	else if (!c)
		snprintf(corr, clen, "modelled: no paired measurement (%.*s)",
			 why ? (int)strcspn(why, ";") : 25, why ?: "none stored for this mix");
	est_report_free(&r);
}

static void profile_subtitle(const struct profile *p, const struct flamegraph_args *a,
			     struct est_run *run, char *sub, size_t len, char *corr, size_t clen,
			     struct flame_costs *fc, struct fg_svg_opts *o)
{
	int n = snprintf(sub, len, "kernel %s, %s", p->meta.kernel ?: "?",
			 p->meta.cpu_model ?: "unknown CPU");

	if (run && n > 0 && (size_t)n < len)
		n += snprintf(sub + n, len - (size_t)n, "; %s (%s)", base_name(a->cost.model),
			      a->cost.cache.label);
	if (run && n > 0 && (size_t)n < len)
		verdict_of(a, run, sub + n, len - (size_t)n, corr, clen, fc, o);
}

/*
 * The time-weighted views: the profile and the cost model are read once, by the estimate that
 * costs the frames (flame_cost.c) and gives the verdict. @run keeps @profiles (the -i given),
 * which must outlive it. Returns 0 or -errno (printed).
 */
static int load_estimate(const struct flamegraph_args *a, const char *const *profiles,
			 struct est_run *run)
{
	const char *models[1] = { a->cost.model };
	struct est_run_opts opts = { 0 };

	est_options_default(&opts.o);
	opts.o.cache = a->cost.cache;
	opts.o.family = a->cost.family;
	memcpy(opts.o.today, a->today.today, sizeof(opts.o.today));
	opts.o.at = a->cost.threshold;
	opts.o.at_set = a->cost.threshold_set;
	return est_run_load(run, &opts, profiles, 1, NULL, models, 1);
}

static int read_profile(const struct flamegraph_args *a, struct fg_tree *t, struct fg_svg_opts *o,
			char *title, char *sub, size_t len)
{
	struct flame_opts fo = { .weight = (enum flame_weight)a->weight,
				 .family = a->cost.family,
				 .no_comm = a->no_comm };
	static const char *const units[] = { "samples", "calls", "bytes", "ns" };
	bool timed = a->weight == FLAME_TIME || a->cost.threshold_set;
	const char *profiles[1] = { a->common.input };
	struct est_run run = { 0 };
	struct flame_costs fc = { 0 };
	struct profile *p = NULL;
	struct flame_stats st;
	char corr[512] = "";
	int err;

	err = timed ? load_estimate(a, profiles, &run) : profile_read(a->common.input, &p);
	if (err)
		goto out;
	if (timed)
		p = run.profile;
	if (a->weight < 0)
		fo.weight = a->cost.threshold_set ? FLAME_TIME : flame_default_weight(p);
	if (fo.weight == FLAME_TIME) {
		err = flame_costs_init(&fc, p, run.models[0], a->cost.model, &a->cost.cache,
				       a->cost.threshold_set ? &a->cost.threshold : NULL,
				       a->today.today);
		if (err)
			goto out;
		fo.costs = &fc;
		o->delta = a->cost.threshold_set;
		if (a->cost.threshold_set)
			o->at_name = strdup(fc.pol[1].name);
	}
	/* First estimate's verdict and intervals: the frames' grey band comes from them. */
	profile_subtitle(p, a, timed ? &run : NULL, sub, len, corr, sizeof(corr), &fc, o);
	err = flame_from_profile(p, &fo, t, &st);
	if (err)
		goto out;
	if (st.skipped)
		p_warn("%zu %s site(s) left out: %s", st.skipped,
		       fo.weight == FLAME_SAMPLES ? "counted" : "sampled",
		       fo.weight == FLAME_SAMPLES
			       ? "they have no stacks (draw them with --weight calls)"
			       : "their buckets count samples, not calls (draw them with --weight "
				 "samples or time)");
	if (!(t->root.weight > 0)) {
		if (fo.weight == FLAME_SAMPLES)
			p_err("%s has no sampled stacks to draw (%zu site(s))", a->common.input,
			      p->nr_sites);
		else
			p_err("%s has no %scalls of a known length to draw by %s (%zu site(s))",
			      a->common.input, fo.weight == FLAME_TIME ? "" : "counted ",
			      flame_weight_name(fo.weight), p->nr_sites);
		err = -ENOENT;
		goto out;
	}
	o->unit = units[fo.weight];
	if (a->cost.threshold_set)
		snprintf(title, len, "Copy time today; colour: %s vs today: %s", o->at_name ?: "T",
			 base_name(a->common.input));
	else
		snprintf(title, len, "Copy %s by %s: %s", flame_weight_name(fo.weight),
			 fo.weight == FLAME_SAMPLES ? "stack" : "caller, site and length",
			 base_name(a->common.input));
	if (corr[0])
		o->note = strdup(corr);
out:
	if (fo.costs)
		flame_costs_free(&fc);
	if (timed)
		est_run_free(&run); /* with its profile and model */
	else
		profile_free(p);
	return err;
}

static const char *side_family(const struct profile_site *s)
{
	return est_family(est_site_family(s))->name;
}

/* --diff: AFTER's frames, coloured by the change from BEFORE (flame_diff.c). */
static int read_diff(const struct flamegraph_args *a, struct fg_tree *t, struct fg_svg_opts *o,
		     char *title, char *sub, size_t len)
{
	struct profile_diff_opts po = { .norm = a->norm, .family_of = side_family };
	static const char *const units[] = { "samples", "calls", "bytes", "ns" };
	struct profile *p[2] = { NULL, NULL };
	enum flame_weight w;
	struct profile_diff d;
	int err;

	err = profile_diff_open(a->files, &po, p, &d);
	if (err)
		return err;
	w = d.sampled ? FLAME_SAMPLES : a->weight >= 0 ? a->weight : FLAME_CALLS;
	if (d.mixed) {
		p_err("%s or %s mixes sampled and counted sites: a differential flame graph draws "
		      "one kind; copyprof diff compares each kind with its own",
		      a->files[0], a->files[1]);
		err = -EINVAL;
	} else if ((w == FLAME_SAMPLES) != d.sampled) {
		p_err("--weight %s: these profiles are %s: give --weight %s", flame_weight_name(w),
		      d.sampled ? "sampled" : "counted", d.sampled ? "samples" : "calls or bytes");
		err = -EINVAL;
	} else {
		err = flame_diff_build(&d, w, a->no_comm, t, &o->diff_full);
	}
	if (!err && !(t->root.weight > 0)) {
		p_err("%s has nothing to draw by %s", a->files[1], flame_weight_name(w));
		err = -ENOENT;
	}
	if (!err) {
		o->diff = true;
		o->unit = units[w];
		snprintf(title, len, "Differential flame graph: %s -> %s", base_name(a->files[0]),
			 base_name(a->files[1]));
		snprintf(sub, len,
			 "width: AFTER's %s; colour: change from BEFORE (%s), red grew, blue "
			 "shrank; all %+.2f%%",
			 flame_weight_name(w),
			 d.per_second ? "rates per second" : "totals per recording",
			 t->root.today_ns > 0 ? 100 * (t->root.weight / t->root.today_ns - 1) : 0);
	}
	profile_diff_free(&d);
	profile_free(p[0]);
	profile_free(p[1]);
	return err;
}

/* The SVG, or an SVG that says what went wrong, written whole or not at all. */
static int render(const struct flamegraph_args *a, const struct fg_tree *t,
		  const struct fg_svg_opts *o, const char *error)
{
	const char *out = a->common.output ?: "-";
	size_t len = 0, drawn = 0, omitted = 0;
	char *buf = NULL;
	FILE *f;
	int err = 0;

	f = open_memstream(&buf, &len);
	if (!f) {
		p_err("cannot render the SVG: %s", strerror(errno));
		return -errno;
	}
	if (error)
		fg_svg_write_error(f, o, error);
	else
		err = fg_svg_write(f, t, o, &drawn, &omitted);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (err)
		p_err("cannot render the SVG: %s", strerror(-err));
	else
		err = outfile_write(out, buf, len);
	if (!err && omitted)
		p_debug("%zu frame(s) narrower than %g px left out", omitted, FG_MIN_WIDTH);
	if (!err && strcmp(out, "-"))
		p_info("wrote %s (%zu frames)", out, drawn);
	free(buf);
	return err;
}

int cmd_flamegraph(int argc, char **argv)
{
	struct argp common, cost;
	struct argp_child children[3] = { { 0 } };
	struct argp argp = { options, parse_opt, NULL, doc, children };
	struct flamegraph_args args = { .weight = -1 };
	struct fg_svg_opts o = { 0 };
	char title[512], sub[1024];
	struct fg_tree *t;
	int err;

	cmd_options_child(&common_options, &common, children);
	cmd_cost_child(&cost_options, &cost, &children[1]);
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	t = fg_tree_new("all");
	if (!t) {
		p_err("cannot draw a flame graph: %s", strerror(ENOMEM));
		return EXIT_RUNTIME;
	}
	title[0] = sub[0] = '\0';
	o.width = args.width;
	o.unit = "samples";
	if (args.diff) {
		snprintf(title, sizeof(title), "Differential flame graph");
		err = read_diff(&args, t, &o, title, sub, sizeof(sub));
	} else if (args.folded) {
		snprintf(title, sizeof(title), "Flame graph: %s", base_name(args.folded));
		err = read_folded(&args, t, sub, sizeof(sub));
	} else {
		snprintf(title, sizeof(title), "Flame graph: %s", base_name(args.common.input));
		err = read_profile(&args, t, &o, title, sub, sizeof(sub));
	}
	o.title = args.title ?: title;
	o.subtitle = sub[0] ? sub : NULL;
	p_debug("%zu frames, %u levels, total weight %.15g", t->nr_nodes + 1, fg_tree_depth(t),
		t->root.weight);
	/* Bad input still gives an SVG that says what went wrong, and exit status 1. */
	if (render(&args, t, &o, err ? log_last_error() : NULL))
		err = err ?: -EIO;
	free((char *)o.at_name);
	free((char *)o.note);
	fg_tree_free(t);
	return err ? EXIT_RUNTIME : EXIT_OK;
}
