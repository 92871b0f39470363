/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_cost_options.h: -m, --cache, --family and --threshold (--at) of the commands that cost copies */
#ifndef CP_CMD_COST_OPTIONS_H
#define CP_CMD_COST_OPTIONS_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "estimate/estimate_options.h"
#include "estimate/estimate_run.h"

/*
 * Which of the options a command takes and what they mean there: a NULL help text leaves the
 * option out. estimate, diff, flamegraph and calibrate parse them here, so that each has one
 * spelling, one parser and one message for a bad value.
 */
struct cmd_cost_spec {
	const char *model_help; /* -m, --costmodel FILE */
	bool many_models; /* -m may be repeated (up to EST_MAX_MODELS); else the last counts */
	const char *cache_help;	    /* --cache STATE: est_cache_parse() */
	const char *family_help;    /* --family NAME: est_family_parse() */
	const char *threshold_help; /* --threshold T (alias --at): one length or 'never' */
};

/* What was given; family -1, cache warm and the *_set flags false for what was not. */
struct cmd_cost_options {
	const char *models[EST_MAX_MODELS]; /* every -m, in order */
	size_t nr_models;
	const char *model; /* the last -m, or NULL */
	struct est_cache cache;
	bool cache_set;
	int family; /* an enum copy_family, or -1: every family */
	uint64_t threshold;
	bool threshold_set;
};

/*
 * Fills @child (one entry of the parent's children; the parent ends the array) and @argp, which
 * it points to, for @spec; the parent passes @opts as the child's input (in its ARGP_KEY_INIT,
 * state->child_inputs[i] = opts for child i). The defaults are set in the child's own
 * ARGP_KEY_INIT, before any option. The option table is static: one command parses a process.
 */
void cmd_cost_child(const struct cmd_cost_spec *spec, struct argp *argp, struct argp_child *child);

#endif
