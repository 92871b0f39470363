// SPDX-License-Identifier: GPL-2.0
/* cmd_verify.c: `copyprof verify`: run a program with and without a glibc threshold, compare */
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_cost_options.h"
#include "cmd_options.h"
#include "cmd_verify_predict.h"
#include "verify_share.h"
#include "commands.h"
#include "lib/glibc_thresholds.h"
#include "lib/glibc_tunables.h"
#include "lib/glibc_tunables_env.h"
#include "lib/elfsyms.h"
#include "lib/jsonw.h"
#include "lib/log.h"
#include "measure/verify_run.h"

#define VERIFY_TUNABLE "glibc.cpu.x86_rep_movsb_threshold"

enum { OPT_PAIRS = 0x300, OPT_MAX_SECONDS, OPT_WIDTH, OPT_KEEP_OUTPUT, OPT_DRY_RUN };

struct verify_args {
	struct cmd_options common;    /* -i, --json, -v */
	struct cmd_cost_options cost; /* -m, --threshold */
	struct verify_opts run;
	bool dry_run;
};

/* The two environments and what glibc makes of them. */
struct verify_env {
	uint64_t threshold;
	const char *a; /* GLIBC_TUNABLES of A: copyprof's own, or NULL (unset) */
	char *b;       /* ... of B: A's with the threshold set */
	char *ldso;    /* the command's dynamic loader */
	uint64_t in_force_a, in_force_b;
};

static const struct argp_option options[] = {
	{ "pairs", OPT_PAIRS, "N", 0, "At most N pairs of runs (default 60, at least 8)", 0 },
	{ "max-seconds", OPT_MAX_SECONDS, "S", 0,
	  "No new pair after S seconds (default 120; the first 8 pairs always run)", 0 },
	{ "width", OPT_WIDTH, "POINTS", 0,
	  "Stop once the 95% interval is at most this wide, in percentage points (default 2)", 0 },
	{ "keep-output", OPT_KEEP_OUTPUT, NULL, 0,
	  "The command's stdout and stderr to copyprof's stderr (default /dev/null)", 0 },
	{ "dry-run", OPT_DRY_RUN, NULL, 0,
	  "Print both environments and the threshold glibc takes from each, run nothing", 0 },
	{ 0 }
};

static const struct cmd_options_spec common_options = {
	.input_arg = "PROFILE",
	.input_help = "The profile the prediction is made from (with -m)",
	.json_help = "Print the result as JSON",
};

static const struct cmd_cost_spec cost_options = {
	.model_help = "Cost model of the prediction (with -i; a measured mix: calibrate --mix)",
	.threshold_help = "The threshold T to run with (default with -i and -m: the estimate's "
			  "best; required without them)",
};

static const char doc[] =
	"Run a command with and without GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=T, "
	"interleaved (ABBA...) after a warm-up run of each, and measure what T does to the "
	"program's CPU time (user + system of its whole process tree, from wait4): the median of "
	"the per-pair ratios with a 95% bootstrap interval, stopping once the interval is --width "
	"wide, after --pairs pairs or --max-seconds. With -i and -m, the predicted change of the "
	"program's CPU time (estimate's program-level figure) is printed beside it, and whether "
	"the two agree (their 95% intervals overlap). A GLIBC_TUNABLES already in the "
	"environment is kept, only the threshold replaced. glibc ignores a threshold outside its "
	"bounds silently; verify asks the command's ld.so --list-tunables under B's environment "
	"and refuses a T glibc does not take.\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof verify --threshold 4096 -- zstd -d -f big.zst -o /dev/null\n"
	"  copyprof verify -i zstd.json -m cm.json -- zstd -d -f big.zst -o /dev/null\n"
	"  copyprof verify --threshold 4096 --dry-run -- ./app\n"
	"  copyprof verify --threshold 4096 --json --pairs 20 -- python3 job.py\n"
	"\n"
	"Exit status: 0 ok, 1 a run of the command failed (which run is said), glibc refuses T, "
	"or the profile or model cannot be used, 2 usage error.";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct verify_args *a = state->input;
	char *end;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		state->child_inputs[1] = &a->cost;
		break;
	case OPT_PAIRS:
		a->run.max_pairs = strtoul(arg, &end, 10);
		if (*end || !*arg || a->run.max_pairs < VERIFY_MIN_PAIRS ||
		    a->run.max_pairs > 100000)
			argp_error(state, "--pairs %s: give a number of pairs from %d to 100000",
				   arg, VERIFY_MIN_PAIRS);
		break;
	case OPT_MAX_SECONDS:
		a->run.max_seconds = strtod(arg, &end);
		if (*end || !*arg || !(a->run.max_seconds > 0) || !isfinite(a->run.max_seconds))
			argp_error(state, "--max-seconds %s: give a number of seconds > 0", arg);
		break;
	case OPT_WIDTH:
		a->run.target_width = strtod(arg, &end);
		if (*end || !*arg || !(a->run.target_width > 0) || !isfinite(a->run.target_width))
			argp_error(state, "--width %s: give percentage points > 0", arg);
		break;
	case OPT_KEEP_OUTPUT:
		a->run.keep_output = true;
		break;
	case OPT_DRY_RUN:
		a->dry_run = true;
		break;
	case ARGP_KEY_ARGS:
		a->run.argv = state->argv + state->next;
		break;
	case ARGP_KEY_END:
		if (!a->run.argv || !a->run.argv[0])
			argp_error(state, "give the command to run after --");
		if (!a->common.input != !a->cost.model)
			argp_error(state, "-i and -m go together (the prediction needs both)");
		if (!a->common.input && !a->cost.threshold_set)
			argp_error(state, "give --threshold T, or -i PROFILE -m MODEL for the "
					  "estimate's best");
		if (a->cost.threshold_set && a->cost.threshold == UINT64_MAX)
			argp_error(state, "--threshold never: glibc has no such setting; give a "
					  "length");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* glibc's x86_rep_movsb_threshold in force under @tunables; 0, or -1 (said). */
static int in_force(const char *ldso, const char *tunables, uint64_t *v, struct glibc_tunable *t)
{
	struct glibc_tunables gt;
	char *why = NULL;

	if (glibc_tunables_read(ldso, tunables, &gt, &why) || !gt.rep_movsb_threshold.present) {
		p_err("cannot tell which threshold glibc takes: %s",
		      why ?: "its ld.so lists no " VERIFY_TUNABLE " (not x86-64 glibc 2.33+)");
		free(why);
		return -1;
	}
	*v = gt.rep_movsb_threshold.value;
	*t = gt.rep_movsb_threshold;
	return 0;
}

/* Both environments, and the check that glibc takes T under B's. 0, or -1 (said). */
static int env_prepare(struct verify_args *a, uint64_t threshold, struct verify_env *e)
{
	struct glibc_tunable t;
	char *why = NULL, *path = elfsyms_find_file(a->run.argv[0]);

	e->threshold = threshold;
	e->a = getenv("GLIBC_TUNABLES");
	e->b = glibc_tunables_env_set(e->a, VERIFY_TUNABLE, threshold);
	e->ldso = path ? glibc_tunables_ldso_of(path, &why) : NULL;
	if (!e->ldso) {
		p_debug("%s: %s: asking %s", a->run.argv[0], why ?: "not found on PATH",
			GLIBC_TUNABLES_DEFAULT_LDSO);
		e->ldso = strdup(GLIBC_TUNABLES_DEFAULT_LDSO);
	}
	free(why);
	free(path);
	if (!e->b || !e->ldso || in_force(e->ldso, e->a, &e->in_force_a, &t) ||
	    in_force(e->ldso, e->b, &e->in_force_b, &t))
		return -1;
	if (e->in_force_b != threshold) {
		p_err("glibc does not take %s=%llu: %s --list-tunables under GLIBC_TUNABLES=%s "
		      "shows "
		      "%llu in force (min 0x%llx, max 0x%llx). glibc 2.36 takes this tunable only "
		      "above its min (the vector size x 8) and at most its max, and ignores any "
		      "other value silently",
		      VERIFY_TUNABLE, (unsigned long long)threshold, e->ldso, e->b,
		      (unsigned long long)e->in_force_b, (unsigned long long)t.min,
		      (unsigned long long)t.max);
		return -1;
	}
	if (e->in_force_a == threshold)
		p_warn("glibc already runs with %s=%llu without it: A and B run the same code",
		       VERIFY_TUNABLE, (unsigned long long)threshold);
	a->run.tunables_a = e->a;
	a->run.tunables_b = e->b;
	return 0;
}

static void print_env(FILE *f, const struct verify_env *e)
{
	fprintf(f, "  A: GLIBC_TUNABLES %s%s (%s in force: %llu)\n", e->a ? "=" : "unset",
		e->a ?: "", VERIFY_TUNABLE, (unsigned long long)e->in_force_a);
	fprintf(f, "  B: GLIBC_TUNABLES=%s (%s in force: %llu, read with %s --list-tunables)\n",
		e->b, VERIFY_TUNABLE, (unsigned long long)e->in_force_b, e->ldso);
}

static void print_text(const struct verify_args *a, const struct verify_env *e,
		       const struct verify_result *r, const struct verify_prediction *pr)
{
	char cmd[200] = "";
	size_t i;

	for (i = 0; a->run.argv[i] && strlen(cmd) + strlen(a->run.argv[i]) + 2 < sizeof(cmd); i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "%s%s", i ? " " : "",
			 a->run.argv[i]);
	printf("copyprof verify: %s\n", cmd);
	print_env(stdout, e);
	printf("  %zu pairs (ABBA, after a warm-up run of each), stopped by %s, %.1f s\n", r->pairs,
	       r->stopped_by ?: "?", r->seconds);
	printf("  CPU time (user + system, the process tree), median: A %.4f s, B %.4f s\n",
	       r->cpu_a_median, r->cpu_b_median);
	printf("  measured: T=%llu changes the program's CPU time by %+.2f%% (95%% CI %+.2f .. "
	       "%+.2f; median of %zu per-pair ratios, bootstrap)\n",
	       (unsigned long long)e->threshold, r->pct, r->lo, r->hi, r->pairs);
	printf("  wall time: %+.2f%% (95%% CI %+.2f .. %+.2f)\n", r->wall_pct, r->wall_lo,
	       r->wall_hi);
	if (pr->has_profile)
		verify_prediction_print(stdout, pr, e->threshold, r);
}

static void print_json(const struct verify_args *a, const struct verify_env *e,
		       const struct verify_result *r, const struct verify_prediction *pr)
{
	json_object *o = json_object_new_object(), *cmd = json_object_new_array();
	size_t i;

	for (i = 0; a->run.argv[i]; i++)
		json_object_array_add(cmd, json_object_new_string(a->run.argv[i]));
	json_object_object_add(o, "command", cmd);
	jsonw_put_str(o, "tunable", VERIFY_TUNABLE);
	json_object_object_add(o, "threshold", json_object_new_uint64(e->threshold));
	jsonw_put_str(o, "tunables_a", e->a);
	jsonw_put_str(o, "tunables_b", e->b);
	json_object_object_add(o, "in_force_a", json_object_new_uint64(e->in_force_a));
	json_object_object_add(o, "in_force_b", json_object_new_uint64(e->in_force_b));
	jsonw_put_str(o, "ldso", e->ldso);
	if (r) {
		json_object *runs = json_object_new_array();

		json_object_object_add(o, "pairs", json_object_new_uint64(r->pairs));
		jsonw_put_str(o, "stopped_by", r->stopped_by);
		json_object_object_add(o, "seconds", json_object_new_double(r->seconds));
		json_object_object_add(o, "measured_pct", json_object_new_double(r->pct));
		json_object_object_add(o, "ci_low", json_object_new_double(r->lo));
		json_object_object_add(o, "ci_high", json_object_new_double(r->hi));
		json_object_object_add(o, "wall_pct", json_object_new_double(r->wall_pct));
		json_object_object_add(o, "wall_ci_low", json_object_new_double(r->wall_lo));
		json_object_object_add(o, "wall_ci_high", json_object_new_double(r->wall_hi));
		json_object_object_add(o, "cpu_a_s", json_object_new_double(r->cpu_a_median));
		json_object_object_add(o, "cpu_b_s", json_object_new_double(r->cpu_b_median));
		for (i = 0; i < r->pairs; i++) {
			json_object *p = json_object_new_object();

			json_object_object_add(p, "cpu_a_s", json_object_new_double(r->cpu_a[i]));
			json_object_object_add(p, "cpu_b_s", json_object_new_double(r->cpu_b[i]));
			json_object_object_add(p, "wall_a_s", json_object_new_double(r->wall_a[i]));
			json_object_object_add(p, "wall_b_s", json_object_new_double(r->wall_b[i]));
			json_object_array_add(runs, p);
		}
		json_object_object_add(o, "runs", runs);
	}
	if (pr->has_profile)
		verify_prediction_json(o, pr, r);
	jsonw_print(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
	json_object_put(o);
}

int cmd_verify(int argc, char **argv)
{
	struct argp common, cost;
	struct argp_child children[3] = { { 0 } };
	struct argp argp = { options, parse_opt, "-- COMMAND [ARG...]", doc, children };
	struct verify_args args = { .run = { .max_pairs = VERIFY_DEFAULT_PAIRS,
					     .max_seconds = VERIFY_DEFAULT_SECONDS,
					     .target_width = VERIFY_DEFAULT_WIDTH } };
	struct verify_prediction pr = { 0 };
	struct verify_env env = { 0 };
	struct verify_result r = { 0 };
	struct verify_share share = { 0 };
	uint64_t threshold;
	int ret = EXIT_RUNTIME;

	cmd_options_child(&common_options, &common, children);
	cmd_cost_child(&cost_options, &cost, &children[1]);
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	args.run.progress = log_verbose;
	threshold = args.cost.threshold;
	if (args.common.input && verify_prediction_load(args.common.input, args.cost.model,
							args.cost.threshold_set, &threshold, &pr))
		goto out;
	if (env_prepare(&args, threshold, &env))
		goto out;
	if (args.dry_run) {
		if (args.common.json)
			print_json(&args, &env, NULL, &pr);
		else
			print_env(stdout, &env);
		ret = EXIT_OK;
		goto out;
	}
	if (pr.has_profile && verify_share_open(&share, pr.run.profile)) {
		args.run.around_a = verify_share_around_a;
		args.run.around_ctx = &share;
	}
	if (verify_run(&args.run, &r))
		goto out;
	verify_prediction_untraced(&pr, args.run.argv, &r);
	if (share.hs)
		est_program_untraced_share(pr.fr, share.sum[CP_SHARE_COPY], share.sum[CP_SHARE_OWN],
					   &pr.pg);
	if (args.common.json)
		print_json(&args, &env, &r, &pr);
	else
		print_text(&args, &env, &r, &pr);
	ret = EXIT_OK;
out:
	verify_share_close(&share);
	verify_result_free(&r);
	verify_prediction_free(&pr);
	free(env.b);
	free(env.ldso);
	return ret;
}
