// SPDX-License-Identifier: GPL-2.0
/* cmd_merge.c: `copyprof merge`: sum profiles from many runs or hosts, by kernel and CPU group */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd_options.h"
#include "commands.h"
#include "lib/log.h"
#include "lib/num_format.h"
#include "lib/outfile.h"
#include "profile/merge.h"
#include "profile/profile.h"
#include "profile/profile_mux.h"

struct merge_args {
	struct cmd_options common; /* -o, --json, -v */
	char **inputs;
	size_t nr_inputs;
};

static const struct cmd_options_spec common_options = {
	.output_help = "Merged profile to write (default copyprof.json, never one of the inputs; - "
		       "for stdout)",
	.json_help = "Print the merged profile on stdout too",
};

static const char doc[] =
	"Sum profiles (from several runs or hosts) into one. Sites are matched by target, symbol, "
	"offset, mechanism and length register, never by address. Profiles of different kernels, "
	"CPUs (model and flags) or sampling rates are kept apart in groups, never mixed; "
	"'estimate' reports each group on its own. Merged profiles can be merged again: the "
	"result does not depend on the order or grouping of the inputs.\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof merge -o fleet.json host1.json host2.json host3.json\n"
	"  copyprof merge run1.json run2.json          # into copyprof.json\n"
	"  copyprof merge -o all.json fleet.json more/*.json\n"
	"  copyprof estimate -i fleet.json -m costmodel.json\n"
	"\n"
	"Exit status: 0 ok, 1 an input cannot be read or the output cannot be written, 2 usage "
	"error.";

/* True if @a and @b name one existing file. */
static bool same_file(const char *a, const char *b)
{
	struct stat x, y;

	return strcmp(b, "-") && !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}

/* What tells group @i apart from a group that prints the same CPU and kernel. */
static void print_group(FILE *f, const struct profile *out, size_t i)
{
	const struct profile_group *g = &out->groups[i];
	bool twin = false;
	size_t j, k;

	fprintf(f, "  group %zu: %s, kernel %s, %s", i, g->cpu_model ?: "unknown CPU",
		g->kernel ?: "unknown", g->sample_hz ? "sampled" : "counted");
	if (g->sample_hz)
		fprintf(f, " at %u Hz", g->sample_hz);
	fprintf(f, ", %zu host%s, %llu profile%s\n", g->nr_hosts, g->nr_hosts == 1 ? "" : "s",
		(unsigned long long)g->profiles, g->profiles == 1 ? "" : "s");
	for (j = 0; j < out->nr_groups; j++)
		if (j != i && out->groups[j].sample_hz == g->sample_hz &&
		    !strcmp(out->groups[j].cpu_model ?: "", g->cpu_model ?: "") &&
		    !strcmp(out->groups[j].kernel ?: "", g->kernel ?: ""))
			twin = true;
	if (!twin)
		return;
	/* Same model and kernel: the CPU flags differ (a VM may hide some). */
	fprintf(f, "    kept apart by its CPU flags:");
	for (k = 0; k < g->nr_cpu_flags; k++)
		fprintf(f, " %s", g->cpu_flags[k]);
	fprintf(f, "%s\n", g->nr_cpu_flags ? "" : " (none)");
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct merge_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		break;
	case ARGP_KEY_ARG:
		a->inputs = &state->argv[state->next - 1];
		a->nr_inputs = (size_t)(state->argc - state->next + 1);
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (!a->nr_inputs)
			argp_error(state, "give at least one PROFILE to merge");
		if (!a->common.output)
			a->common.output = "copyprof.json";
		for (size_t i = 0; i < a->nr_inputs; i++)
			if (same_file(a->inputs[i], a->common.output))
				argp_error(
					state,
					"%s is an input too: give the merged profile another name "
					"with -o",
					a->common.output);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct argp common;
	struct argp_child children[2];
	struct argp argp = { NULL, parse_opt, "PROFILE...", doc, children };
	struct merge_args args = { 0 };
	struct profile **in, *out = NULL;
	size_t i, groups = 0, sites = 0;
	int err = 0, ret = EXIT_RUNTIME;

	cmd_options_child(&common_options, &common, children);
	argp_parse(&argp, argc, argv, 0, NULL, &args);
	if (outfile_check(args.common.output))
		return EXIT_RUNTIME;
	in = calloc(args.nr_inputs, sizeof(*in));
	if (!in) {
		p_err("merge: out of memory");
		return EXIT_RUNTIME;
	}
	for (i = 0; !err && i < args.nr_inputs; i++)
		err = profile_read(args.inputs[i], &in[i]);
	if (err)
		goto out;
	err = merge_profiles(in, args.nr_inputs, &out);
	if (err) {
		if (err == -ENOMEM)
			p_err("merge: out of memory");
		else if (err == -EINVAL)
			p_err("merge: the profiles hold no group to merge");
		goto out;
	}
	if (profile_write(out, args.common.output))
		goto out;
	if (args.common.json && profile_write(out, "-"))
		goto out;
	for (i = 0; i < out->nr_sites; i++)
		sites++;
	groups = out->nr_groups;
	fprintf(args.common.json || !strcmp(args.common.output, "-") ? stderr : stdout,
		"merged %zu profile%s into %s: %zu group%s "
		"(kernel x CPU), %zu site%s\n",
		args.nr_inputs, args.nr_inputs == 1 ? "" : "s", args.common.output, groups,
		groups == 1 ? "" : "s", sites, sites == 1 ? "" : "s");
	for (i = 0; i < out->nr_groups; i++)
		print_group(args.common.json || !strcmp(args.common.output, "-") ? stderr : stdout,
			    out, i);
	if (out->nr_groups > 1)
		fprintf(args.common.json || !strcmp(args.common.output, "-") ? stderr : stdout,
			"  (profiles of different kernels, CPUs or sampling rates are never "
			"summed: "
			"estimate reports each group)\n");
	for (i = 0; i < out->nr_sites; i++) {
		const struct profile_site *s = &out->sites[i];
		char mux[64], n1[NUM_FORMAT_LEN];

		if (*site_mux_describe(s, mux, sizeof(mux)))
			fprintf(args.common.json || !strcmp(args.common.output, "-") ? stderr
										     : stdout,
				"  site %u %s:%s+0x%llx: %s calls %s\n", s->id, s->target ?: "?",
				s->symbol ?: "?", (unsigned long long)s->offset,
				num_format(s->calls, n1), mux);
	}
	ret = EXIT_OK;
out:
	for (i = 0; i < args.nr_inputs; i++)
		profile_free(in[i]);
	free(in);
	profile_free(out);
	return ret;
}
