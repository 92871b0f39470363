// SPDX-License-Identifier: GPL-2.0
/* cmd_import_perf.c: `copyprof import-perf`: a perf record -g profile into a copyprof profile */
#include <argp.h>
#include <errno.h>
#include "cmd_options.h"
#include "commands.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "import/import_perf.h"
#include "import/perf_script.h"
#include "profile/profile.h"
#include "profile/profile_sample.h"
#include "sites/copy_family.h"

struct import_args {
	struct cmd_options common;	/* -i, -o, --json, -v */
	struct import_perf_args import; /* --script, --no-kernel-text; -i from common */
};

enum { OPT_SCRIPT = 0x100, OPT_LEAF, OPT_NO_TEXT };

static const struct cmd_options_spec common_options = {
	.input_arg = "PERF.DATA",
	.input_help = "perf record -g output to import (default perf.data); "
		      "copyprof runs perf script on it",
	.output_help = "Write the profile to FILE (default copyprof.json; - for stdout)",
};

static const struct argp_option options[] = {
	{ "script", OPT_SCRIPT, "FILE", 0,
	  "Import perf script text instead (- for stdin), made with "
	  "perf script -F " PERF_SCRIPT_FIELDS },
	{ "leaf", OPT_LEAF, "SYMBOL", 0, "Also count SYMBOL as a copy routine (repeatable)" },
	{ "no-kernel-text", OPT_NO_TEXT, NULL, 0,
	  "Do not read this machine's kernel text to "
	  "recognise inline rep movs/stos copies" },
	{},
};

static const char doc[] =
	"Turn a perf record -g profile into a copyprof profile: copy-family samples charged to "
	"their leaf and caller, with folded stacks, as record --sample does.\n"
	"\n"
	"EXAMPLES:\n"
	"  perf record -g -F 999 -a -- sleep 10 && copyprof import-perf -o fleet.json\n"
	"  copyprof import-perf -i host7.perf.data -o host7.json\n"
	"  perf script -F " PERF_SCRIPT_FIELDS " > s.txt\n"
	"  copyprof import-perf --script s.txt\n"
	"  R=" PERF_SCRIPT_IREGS "   # for lengths\n"
	"  perf record -g -a --intr-regs=$R -- sleep 10\n"
	"  copyprof import-perf -o lens.json   # lengths as record --sample gets them\n"
	"\n"
	"Lengths: copy lengths are recovered from interrupt registers with the rules of record "
	"--sample (docs/sampling.md) when perf recorded them (perf record --intr-regs=...; "
	"import-perf then asks perf script for iregs) and the samples ran on this machine's "
	"kernel. Without them every length is unknown, and import-perf says so.\n"
	"\n"
	"Exit status: 0 profile written, 1 runtime failure (perf missing or failing, no samples), "
	"2 usage error.";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct import_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		break;
	case OPT_SCRIPT:
		a->import.script = arg;
		break;
	case OPT_LEAF:
		if (copy_family_add_leaf(arg))
			argp_failure(state, EXIT_RUNTIME, ENOMEM, "--leaf");
		break;
	case OPT_NO_TEXT:
		a->import.no_text = true;
		break;
	case ARGP_KEY_ARG:
		argp_error(state,
			   "unexpected argument '%s' (the input is given with -i or --script)",
			   arg);
		break;
	case ARGP_KEY_END:
		if (a->common.input && a->import.script)
			argp_error(state, "-i and --script exclude each other");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_import_perf(int argc, char **argv)
{
	struct import_args args = { .common.output = "copyprof.json" };
	struct argp common;
	struct argp_child children[2];
	struct argp argp = { options, parse_opt, NULL, doc, children };
	struct import_perf_stats st;
	struct profile *p = NULL;
	int status = EXIT_RUNTIME;

	cmd_options_child(&common_options, &common, children);
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	log_setup_libbpf();
	args.import.input = args.common.input;
	if (!args.import.script && !args.import.input)
		args.import.input = "perf.data";
	p = profile_new();
	if (!p || outfile_check(args.common.output) || import_perf_run(&args.import, p, &st))
		goto out;
	if (st.other_kernel && !st.copy)
		p_info("the samples' kernel symbols do not match this machine's: inline rep "
		       "copies (no symbol of their own) could not be recognised");
	p_info("%llu samples, %llu copy family (%.1f%%) in %zu site(s); lengths exact %llu, "
	       "approximate %llu, unknown %llu",
	       (unsigned long long)st.total, (unsigned long long)st.copy,
	       st.total ? 100.0 * (double)st.copy / (double)st.total : 0.0, p->nr_sites,
	       (unsigned long long)st.len.quality[LEN_EXACT],
	       (unsigned long long)st.len.quality[LEN_APPROX],
	       (unsigned long long)(st.copy - st.len.quality[LEN_EXACT] -
				    st.len.quality[LEN_APPROX]));
	if (p->sample && p->sample->lengths_note)
		p_warn("%s", p->sample->lengths_note);
	if (profile_save(p, args.common.output))
		goto out;
	status = EXIT_OK;
out:
	profile_free(p);
	copy_family_reset();
	return status;
}
