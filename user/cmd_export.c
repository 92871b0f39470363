// SPDX-License-Identifier: GPL-2.0
/* cmd_export.c: `copyprof export`: a profile as pprof or OpenMetrics, for fleet tools */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd_options.h"
#include "commands.h"
#include "export/export_openmetrics.h"
#include "export/export_pprof.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "profile/profile.h"

enum export_format { FORMAT_NONE, FORMAT_PPROF, FORMAT_OPENMETRICS };

struct export_args {
	struct cmd_options common; /* -i, -o, --json, -v */
	enum export_format format;
	bool timestamp;
	bool dense; /* --buckets dense */
	bool length_set;
	bool buckets_set;
	struct export_pprof_opts pprof;
};

enum { OPT_TIMESTAMP = 0x100, OPT_LENGTH_AS, OPT_BUCKETS };

static const struct cmd_options_spec common_options = {
	.input_arg = "FILE",
	.input_help = "Profile to read (default copyprof.json); merged ones too",
	.output_help = "Where to write (default -, stdout); replaced atomically",
};

static const struct argp_option options[] = {
	{ "format", 'f', "FORMAT", 0, "pprof (gzipped protobuf) or openmetrics (text); required" },
	{ "timestamp", OPT_TIMESTAMP, NULL, 0,
	  "openmetrics: stamp every sample with the "
	  "recording's start, for backfilling (promtool tsdb create-blocks-from openmetrics)" },
	{ "buckets", OPT_BUCKETS, "sparse|dense", 0,
	  "openmetrics: list only the bounds around each histogram's non-empty ranges (default; "
	  "exact per series) or every bound from its first non-empty one (dense: what PromQL's "
	  "sum by (le) over several hosts' series needs)" },
	{ "length-as", OPT_LENGTH_AS, "frame|label", 0,
	  "pprof: the length bucket as a leaf frame \"len 4096..4607\" (default; flat column = "
	  "lengths) or only as the len_min/len_max labels (flat column = copy functions)" },
	{},
};

static const char doc[] =
	"Write a profile in a format that fleet profilers and Prometheus aggregate: pprof (go tool "
	"pprof, Pyroscope, Parca), one sample per site, caller and length bucket, with a leaf "
	"frame naming the bucket (--length-as label: the copy function as leaf, the length in "
	"labels only); or OpenMetrics text, a length histogram per site with buckets at powers of "
	"two and 1536, only those around its non-empty ranges unless --buckets dense. Merged "
	"profiles keep their groups apart by labels (kernel, cpu_model, host). Totals are exact "
	"and cover the whole recording: not live counters (docs/export.md).\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof export -i btrfs.json -f pprof -o btrfs.pb.gz\n"
	"  # sampled: -sample_index=sample_bytes\n"
	"  go tool pprof -top -sample_index=bytes btrfs.pb.gz\n"
	"  # calls by len_min, site, leaf\n"
	"  go tool pprof -tags btrfs.pb.gz\n"
	"  # lengths of 1 KiB and more\n"
	"  go tool pprof -top -tagfocus=len_min=1024B: btrfs.pb.gz\n"
	"  copyprof export -i btrfs.json -f pprof --length-as label -o fn.pb.gz\n"
	"  # flat: copy functions\n"
	"  go tool pprof -top fn.pb.gz\n"
	"  copyprof export -i fleet.json -f openmetrics -o textfile/copyprof.prom\n"
	"  # for sum by (le) over hosts in PromQL\n"
	"  copyprof export -i fleet.json -f openmetrics --buckets dense -o fleet.prom\n"
	"  copyprof export -i fleet.json -f openmetrics --timestamp -o fleet.om\n"
	"  promtool tsdb create-blocks-from openmetrics fleet.om data/\n"
	"\n"
	"Exit status: 0 ok, 1 unreadable profile or unwritable output, 2 usage error.";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct export_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		break;
	case 'f':
		if (!strcmp(arg, "pprof"))
			a->format = FORMAT_PPROF;
		else if (!strcmp(arg, "openmetrics"))
			a->format = FORMAT_OPENMETRICS;
		else
			argp_error(state, "--format %s: give pprof or openmetrics", arg);
		break;
	case OPT_TIMESTAMP:
		a->timestamp = true;
		break;
	case OPT_BUCKETS:
		if (!strcmp(arg, "sparse"))
			a->dense = false;
		else if (!strcmp(arg, "dense"))
			a->dense = true;
		else
			argp_error(state, "--buckets %s: give sparse or dense", arg);
		a->buckets_set = true;
		break;
	case OPT_LENGTH_AS:
		if (!strcmp(arg, "frame"))
			a->pprof.length_as = EXPORT_LENGTH_FRAME;
		else if (!strcmp(arg, "label"))
			a->pprof.length_as = EXPORT_LENGTH_LABEL;
		else
			argp_error(state, "--length-as %s: give frame or label", arg);
		a->length_set = true;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s' (the profile is given with -i)", arg);
		break;
	case ARGP_KEY_END:
		if (a->format == FORMAT_NONE)
			argp_error(state,
				   "give the format: --format pprof or --format openmetrics");
		if (a->timestamp && a->format != FORMAT_OPENMETRICS)
			argp_error(state, "--timestamp is for --format openmetrics");
		if (a->buckets_set && a->format != FORMAT_OPENMETRICS)
			argp_error(state, "--buckets is for --format openmetrics");
		if (a->length_set && a->format != FORMAT_PPROF)
			argp_error(state, "--length-as is for --format pprof");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int to_pprof(const struct profile *p, const struct export_pprof_opts *o, void **buf,
		    size_t *len, char *what, size_t size)
{
	struct export_pprof_stats st;
	int err = export_pprof(p, o, buf, len, &st);
	char n1[COUNT_SUM_LEN], n2[COUNT_SUM_LEN], n3[COUNT_SUM_LEN];

	if (err == -EOVERFLOW) {
		p_err("export: the profile holds %s calls, %s bytes and %s copy samples; pprof "
		      "keeps signed 64-bit values, which its viewers sum, so a total past "
		      "9,223,372,036,854,775,807 cannot be written (export -f openmetrics keeps "
		      "every count; report prints the exact totals)",
		      count_sum_format(st.calls, n1), count_sum_format(st.bytes, n2),
		      count_sum_format(st.sampled, n3));
		return err;
	}
	if (err) {
		p_err("export: cannot encode the pprof profile: %s", strerror(-err));
		return err;
	}
	snprintf(what, size, "pprof, %llu samples, %llu locations", (unsigned long long)st.samples,
		 (unsigned long long)st.locations);
	if (st.calls || !st.sampled)
		snprintf(what + strlen(what), size - strlen(what), ", %s calls, %s bytes",
			 count_sum_digits(st.calls, n1), count_sum_digits(st.bytes, n2));
	if (st.sampled)
		snprintf(what + strlen(what), size - strlen(what), ", %s copy samples",
			 count_sum_digits(st.sampled, n3));
	return 0;
}

static int to_openmetrics(const struct profile *p, const struct export_args *a, char **buf,
			  size_t *len, char *what, size_t size)
{
	struct om_opts o = { .timestamp = a->timestamp, .sparse = !a->dense };
	struct om_stats st;
	FILE *f = open_memstream(buf, len);
	int err;

	if (!f) {
		p_err("export: out of memory");
		return -ENOMEM;
	}
	err = export_openmetrics(p, f, &o, &st);
	if (fclose(f) && !err)
		err = -EIO;
	if (err == -EIO)
		p_err("export: cannot build the OpenMetrics text: out of memory");
	snprintf(what, size, "openmetrics, %llu histograms, %llu lines",
		 (unsigned long long)st.series, (unsigned long long)st.lines);
	return err;
}

int cmd_export(int argc, char **argv)
{
	struct export_args args = { .common.input = "copyprof.json", .common.output = "-" };
	struct argp common;
	struct argp_child children[2];
	struct argp argp = { options, parse_opt, NULL, doc, children };
	struct profile *p = NULL;
	char what[200] = "";
	void *buf = NULL;
	size_t len = 0;
	int err, ret = EXIT_RUNTIME;

	cmd_options_child(&common_options, &common, children);
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	/* As gzip does: compressed bytes on a terminal help nobody. */
	if (args.format == FORMAT_PPROF && !strcmp(args.common.output, "-") &&
	    isatty(STDOUT_FILENO)) {
		p_err("export: pprof is binary: give -o FILE or redirect stdout");
		return EXIT_USAGE;
	}
	if (profile_read(args.common.input, &p))
		return EXIT_RUNTIME;
	if (args.format == FORMAT_PPROF)
		err = to_pprof(p, &args.pprof, &buf, &len, what, sizeof(what));
	else
		err = to_openmetrics(p, &args, (char **)&buf, &len, what, sizeof(what));
	if (err)
		goto out;
	err = outfile_write(args.common.output, buf, len);
	if (err)
		goto out; /* said by outfile_write() */
	if (strcmp(args.common.output, "-") || log_verbose)
		fprintf(stderr, "exported %zu site%s of %s to %s: %s\n", p->nr_sites,
			p->nr_sites == 1 ? "" : "s", args.common.input, args.common.output, what);
	ret = EXIT_OK;
out:
	free(buf);
	profile_free(p);
	return ret;
}
