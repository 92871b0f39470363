// SPDX-License-Identifier: GPL-2.0
/* cmd_merge.c: `copyprof merge`: sum profiles from many runs or hosts, by kernel and CPU group */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_options.h"
#include "commands.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "profile/merge.h"
#include "profile/profile.h"

struct merge_args {
	struct cmd_options common; /* -o, --json, -v */
	char **inputs;
	size_t nr_inputs;
};

static const struct cmd_options_spec common_options = {
	.output_help = "Merged profile to write (required; - for stdout)",
	.json_help = "Print the merged profile on stdout too",
};

static const char doc[] =
	"Sum profiles (from several runs or hosts) into one. Sites are matched by target, symbol,\n"
	"offset, mechanism and length register, never by address. Profiles of different kernels\n"
	"or CPUs (model and flags) are kept apart in groups, never mixed; 'estimate' reports each\n"
	"group on its own. Merged profiles can be merged again: the result does not depend on the\n"
	"order or grouping of the inputs.\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof merge -o fleet.json host1.json host2.json host3.json\n"
	"  copyprof merge -o all.json fleet.json more/*.json\n"
	"  copyprof estimate -i fleet.json -m costmodel.json\n"
	"\n"
	"Exit status: 0 ok, 1 an input cannot be read or the output cannot be written, 2 usage\n"
	"error.";

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
			argp_error(state, "give the output file with -o");
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
	for (i = 0; i < out->nr_groups; i++) {
		const struct profile_group *g = &out->groups[i];

		fprintf(args.common.json || !strcmp(args.common.output, "-") ? stderr : stdout,
			"  group %zu: %s, kernel %s, %zu host%s, "
			"%llu profile%s\n",
			i, g->cpu_model ?: "unknown CPU", g->kernel ?: "unknown", g->nr_hosts,
			g->nr_hosts == 1 ? "" : "s", (unsigned long long)g->profiles,
			g->profiles == 1 ? "" : "s");
	}
	ret = EXIT_OK;
out:
	for (i = 0; i < args.nr_inputs; i++)
		profile_free(in[i]);
	free(in);
	profile_free(out);
	return ret;
}
