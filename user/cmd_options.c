// SPDX-License-Identifier: GPL-2.0
/* cmd_options.c: -i, -o, --json and -v parsed once for every command (an argp child) */
#include <stdlib.h>
#include <string.h>
#include "cmd_options.h"
#include <linux/types.h>
#include "cp_shared.h"
#include "lib/log.h"

enum { OPT_JSON = 0x2000 };

static error_t parse_common(int key, char *arg, struct argp_state *state)
{
	struct cmd_options *o = state->input;

	switch (key) {
	case 'i':
		if (o->nr_inputs == CMD_MAX_INPUTS)
			argp_error(state, "more than %d -i: merge them first with copyprof merge",
				   CMD_MAX_INPUTS);
		o->inputs[o->nr_inputs++] = arg;
		o->input = arg;
		break;
	case 'o':
		o->output = arg;
		break;
	case OPT_JSON:
		o->json = true;
		log_json = true;
		break;
	case 'v':
		log_verbose = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

void cmd_options_child(const struct cmd_options_spec *spec, struct argp *argp,
		       struct argp_child child[2])
{
	/* One command parses its options once a process: one table, nothing to free. */
	static struct argp_option opt[5];
	struct argp_option *p = opt;

	memset(opt, 0, sizeof(opt));
	if (spec->input_help)
		*p++ = (struct argp_option){ "input", 'i', spec->input_arg ?: "FILE", 0,
					     spec->input_help };
	if (spec->output_help)
		*p++ = (struct argp_option){ "output", 'o', "FILE", 0, spec->output_help };
	if (spec->json_help)
		*p++ = (struct argp_option){ "json", OPT_JSON, NULL, 0, spec->json_help };
	*p = (struct argp_option){ "verbose", 'v', NULL, 0, spec->verbose_help ?: "More messages" };
	memset(argp, 0, sizeof(*argp));
	argp->options = opt;
	argp->parser = parse_common;
	memset(child, 0, 2 * sizeof(*child));
	child[0].argp = argp;
}

void cmd_cgroup_add(struct argp_state *state, const char *arg, const char **dirs, int *nr,
		    bool *by_cgroup)
{
	if (*nr == CP_MAX_CGROUP_FILTERS)
		argp_error(state, "--cgroup %s: at most %d --cgroup directories", arg,
			   CP_MAX_CGROUP_FILTERS);
	dirs[(*nr)++] = arg;
	*by_cgroup = true;
}
