/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_options.h: the options every command shares (-i, -o, --json, -v), as one argp child */
#ifndef CP_CMD_OPTIONS_H
#define CP_CMD_OPTIONS_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Which shared options a command takes and what they mean there: a NULL help text leaves the
 * option out. -v is always there. @input_arg names -i's argument (FILE, PROFILE ...).
 */
struct cmd_options_spec {
	const char *input_arg, *input_help;
	const char *output_help;
	const char *json_help;
	const char *verbose_help; /* NULL: "More messages" */
};

/* How many -i a command may take; more is a usage error. */
#define CMD_MAX_INPUTS 256

/* What was given; NULL/false/0 for what was not. */
struct cmd_options {
	const char *input;		    /* the last -i */
	const char *inputs[CMD_MAX_INPUTS]; /* every -i, in order (estimate takes several) */
	size_t nr_inputs;
	const char *output;
	bool json; /* also makes errors JSON on stdout (log.h) */
};

/*
 * Fills @child (and @argp, which it points to) for @spec; the parent passes @opts as the
 * child's input: in its ARGP_KEY_INIT, state->child_inputs[0] = opts. @argp's option table is
 * one static table (a command parses its options once a process): nothing to free.
 */
void cmd_options_child(const struct cmd_options_spec *spec, struct argp *argp,
		       struct argp_child child[2]);

/*
 * --cgroup DIR (repeatable; record and agent): DIR appended to @dirs (room for
 * CP_MAX_CGROUP_FILTERS, else a usage error), and calls by cgroup turned on (@by_cgroup).
 */
void cmd_cgroup_add(struct argp_state *state, const char *arg, const char **dirs, int *nr,
		    bool *by_cgroup);

#endif
