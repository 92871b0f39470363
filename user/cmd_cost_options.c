// SPDX-License-Identifier: GPL-2.0
/* cmd_cost_options.c: -m, --cache, --family and --threshold (--at) parsed once (an argp child) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_cost_options.h"
#include "estimate/estimate_family.h"
#include "lib/log.h"

enum { OPT_CACHE = 0x3000, OPT_FAMILY, OPT_THRESHOLD };

/* Remembered for the messages: whether -m may be repeated. */
static bool many_models;

static error_t parse_cost(int key, char *arg, struct argp_state *state)
{
	struct cmd_cost_options *o = state->input;
	struct est_options tmp;
	char why[96];

	switch (key) {
	case ARGP_KEY_INIT:
		est_cache_parse("warm", &o->cache);
		o->family = -1;
		break;
	case 'm':
		if (o->nr_models == EST_MAX_MODELS && many_models)
			argp_error(state, "at most %d cost models", EST_MAX_MODELS);
		if (o->nr_models < EST_MAX_MODELS)
			o->models[o->nr_models++] = arg;
		o->model = arg;
		break;
	case OPT_CACHE:
		if (est_cache_parse(arg, &o->cache))
			argp_error(state, "--cache %s: " EST_CACHE_HINT, arg);
		o->cache_set = true;
		break;
	case OPT_FAMILY:
		o->family = est_family_parse(arg);
		if (o->family < 0)
			argp_error(state, "--family %s: " EST_FAMILY_HINT, arg);
		break;
	case OPT_THRESHOLD:
		if (est_thresholds_parse(arg, &tmp, why, sizeof(why)) || tmp.nr_thresholds != 1)
			argp_error(state,
				   "--threshold %s: give one length (K, M suffixes) or 'never'",
				   arg);
		o->threshold = tmp.thresholds[0];
		o->threshold_set = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

void cmd_cost_child(const struct cmd_cost_spec *spec, struct argp *argp, struct argp_child *child)
{
	/* One command parses its options once a process: one table, nothing to free. */
	static struct argp_option opt[6];
	static char threshold_help[512];
	struct argp_option *p = opt;

	memset(opt, 0, sizeof(opt));
	many_models = spec->many_models;
	if (spec->model_help)
		*p++ = (struct argp_option){ "costmodel", 'm', "FILE", 0, spec->model_help };
	if (spec->cache_help)
		*p++ = (struct argp_option){ "cache", OPT_CACHE, "STATE", 0, spec->cache_help };
	if (spec->family_help)
		*p++ = (struct argp_option){ "family", OPT_FAMILY, "NAME", 0, spec->family_help };
	if (spec->threshold_help) {
		snprintf(threshold_help, sizeof(threshold_help), "%s; --at is an alias",
			 spec->threshold_help);
		*p++ = (struct argp_option){ "threshold", OPT_THRESHOLD, "T", 0, threshold_help };
		/* estimate's older spelling: accepted, and shown beside --threshold in --help. */
		*p++ = (struct argp_option){ "at", OPT_THRESHOLD, NULL, OPTION_ALIAS, NULL };
	}
	memset(argp, 0, sizeof(*argp));
	argp->options = opt;
	argp->parser = parse_cost;
	memset(child, 0, sizeof(*child));
	child->argp = argp;
}
