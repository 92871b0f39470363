// SPDX-License-Identifier: GPL-2.0
/* cmd_diff.c: `copyprof diff`: what changed between two profiles, and was it the workload or the code */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_diff_print.h"
#include "cmd_cost_options.h"
#include "cmd_options.h"
#include "commands.h"
#include "estimate/estimate_diff.h"
#include "estimate/estimate_family.h"
#include "lib/jsonw.h"
#include "lib/log.h"
#include "lib/outfile.h"

struct diff_args {
	struct cmd_options common;    /* -o, --json, -v */
	struct cmd_cost_options cost; /* -m, --cache */
	const char *files[2];
	size_t nr_files;
	bool all;
	enum diff_norm norm; /* --totals, --rates; else like with like */
	double alpha;
};

enum { OPT_TOTALS = 0x100, OPT_RATES, OPT_ALPHA, OPT_ALL };

static const struct cmd_options_spec common_options = {
	.output_help = "Write the report to FILE instead of standard output",
	.json_help = "The report as JSON (docs/diff.md#json)",
};

static const struct cmd_cost_spec cost_options = {
	.model_help = "Cost model (from calibrate): modelled copy time per site before and after, "
		      "and how much of the change is the lengths (workload) and how much the code "
		      "(dispatch)",
	.cache_help = "Cache state of the costs, as for estimate (default warm)",
};

static const struct argp_option options[] = {
	{ "totals", OPT_TOTALS, 0, 0,
	  "Compare totals per recording (the default for two recordings of a command that ran to "
	  "its end: the same fixed work, dd count=N, a benchmark run)" },
	{ "rates", OPT_RATES, 0, 0,
	  "Compare rates per second of recording (the default when either was bounded by time: "
	  "-d, Ctrl-C)" },
	{ "alpha", OPT_ALPHA, "P", 0, "Significance level of every test (default 0.01)" },
	{ "all", OPT_ALL, 0, 0, "Show every site and bucket, also those within noise" },
	{},
};

static const char doc[] =
	"Compare two profiles (from record, import-perf or merge): BEFORE and AFTER a change of "
	"kernel, CPU, host or workload. Context changes come first: kernel, CPU model and flags "
	"and the live copy dispatch (e.g. memcpy: memcpy_erms -> memcpy_orig). Then per family and "
	"site (matched by target, symbol, offset and stage label, never by address; by symbol when "
	"the offset moved): calls, bytes, mean length and share, per length bucket the change in "
	"count and share, each tested: counts as Poisson rates, shares as proportions; the rest is "
	"within noise. A mixed profile (counted, multiplexed and sampled sites) compares counted "
	"sites with counted ones and sampled with sampled ones, per kind; multiplexed counts are "
	"scaled estimates, tested on their raw counts. With -m: modelled copy time, its change "
	"split into lengths (the workload) and code (what the kernel ran) (docs/diff.md).\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof diff before.json after.json\n"
	"  copyprof diff --totals -m cooperlake.json guest-6.1.json guest-6.12.json\n"
	"  copyprof diff --rates monday.json tuesday.json\n"
	"  copyprof diff --json old.json new.json | jq '.sites[0]'\n"
	"  copyprof flamegraph --diff before.json after.json -o diff.svg\n"
	"\n"
	"Exit status: 0 compared (also: no change), 1 a profile cannot be read, is empty, is not a "
	"profile, or the two cannot be compared (all sampled against all counted), 2 usage error.";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct diff_args *a = state->input;
	char *end;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		state->child_inputs[1] = &a->cost;
		break;
	case OPT_TOTALS:
	case OPT_RATES:
		if (a->norm && a->norm != (key == OPT_TOTALS ? DIFF_NORM_TOTALS : DIFF_NORM_RATES))
			argp_error(state, "--totals and --rates exclude each other");
		a->norm = key == OPT_TOTALS ? DIFF_NORM_TOTALS : DIFF_NORM_RATES;
		break;
	case OPT_ALPHA:
		a->alpha = strtod(arg, &end);
		if (*end || !(a->alpha > 0 && a->alpha < 1))
			argp_error(state, "--alpha %s: give a level between 0 and 1, e.g. 0.01",
				   arg);
		break;
	case OPT_ALL:
		a->all = true;
		break;
	case ARGP_KEY_ARG:
		if (a->nr_files == 2)
			argp_error(state, "unexpected argument '%s': give BEFORE and AFTER only",
				   arg);
		a->files[a->nr_files++] = arg;
		break;
	case ARGP_KEY_END:
		if (a->nr_files != 2)
			argp_error(state, "give two profiles: BEFORE AFTER");
		if (a->common.input)
			argp_error(state,
				   "give the profiles as arguments, BEFORE AFTER, not with -i");
		if (a->cost.cache_set && !a->cost.model)
			argp_error(state, "--cache applies to modelled time: give -m");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char *site_family(const struct profile_site *s)
{
	return est_family(est_site_family(s))->name;
}

static int emit(const struct diff_args *a, const struct profile_diff *d,
		const struct diff_print_opts *po)
{
	const char *out = a->common.output ?: "-";
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	if (a->common.json) {
		json_object *root = diff_print_json(d, po);

		return jsonw_write_file(root, out);
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		p_err("diff: %s", strerror(errno));
		return -errno;
	}
	diff_print_text(f, d, po);
	if (fclose(f)) {
		free(buf);
		return -ENOMEM;
	}
	err = outfile_write_text(out, buf, len);
	free(buf);
	return err;
}

int cmd_diff(int argc, char **argv)
{
	struct argp common, cost;
	struct argp_child children[3] = { { 0 } };
	struct argp argp = { options, parse_opt, "BEFORE AFTER", doc, children };
	struct diff_args args = { 0 };
	struct profile_diff_opts o = { .family_of = site_family };
	struct diff_print_opts po = { 0 };
	struct profile *p[2] = { NULL, NULL };
	struct costmodel *m = NULL;
	struct profile_diff d;
	bool built = false;
	int ret = EXIT_RUNTIME;

	cmd_options_child(&common_options, &common, children);
	cmd_cost_child(&cost_options, &cost, &children[1]);
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	o.alpha = args.alpha;
	o.norm = args.norm;
	po.names[0] = args.files[0];
	po.names[1] = args.files[1];
	po.all = args.all;
	if (profile_diff_open(args.files, &o, p, &d))
		goto out;
	built = true;
	po.no_change =
		profile_diff_same_file(args.files[0], args.files[1]) || profile_diff_none(&d);
	if (args.cost.model) {
		if (costmodel_read(args.cost.model, &m) ||
		    est_diff_model(&d, m, args.cost.model, &args.cost.cache))
			goto out;
		po.model = args.cost.model;
		po.cache = args.cost.cache.label;
	}
	if (po.no_change && !args.common.json)
		p_info("no change: %s and %s hold the same sites, counts and context",
		       args.files[0], args.files[1]);
	if (!emit(&args, &d, &po))
		ret = EXIT_OK;
out:
	if (built)
		profile_diff_free(&d);
	costmodel_free(m);
	profile_free(p[0]);
	profile_free(p[1]);
	return ret;
}
