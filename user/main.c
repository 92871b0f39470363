// SPDX-License-Identifier: GPL-2.0
/* main.c: copyprof's subcommand table and dispatch */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "lib/log.h"
#include "lib/text_stdout.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "record", cmd_record, "histogram copy lengths at probes into a profile" },
	{ "report", cmd_report, "print a profile's histograms, totals and top sizes" },
	{ "calibrate", cmd_calibrate, "measure the asm-ref copy routines into a cost model" },
	{ "probe", cmd_probe, "live copy dispatch and copy-family call sites in kernel functions" },
	{ "estimate", cmd_estimate, "what a REP MOVSB/STOSB threshold would save on a profile" },
	{ "diff", cmd_diff, "what changed between two profiles: context, sites, lengths, time" },
	{ "merge", cmd_merge, "sum profiles of many runs or hosts, kept apart by kernel and CPU" },
	{ "import-perf", cmd_import_perf, "turn a perf record -g profile into a copyprof profile" },
	{ "flamegraph", cmd_flamegraph,
	  "a profile or folded stacks as an interactive SVG flame graph" },
	{ "export", cmd_export,
	  "a profile as pprof or OpenMetrics for fleet profilers and Prometheus" },
	{ "agent", cmd_agent, "record without end and serve live counters over HTTP (Prometheus)" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: copyprof [--version] [--help] COMMAND [ARGS...]\n\n"
		   "Measure who copies how many bytes through the kernel's copy routines, and\n"
		   "what another REP MOVSB/STOSB threshold would save.\n\nCommands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'copyprof COMMAND --help' describes each command's options.\n"
		   "Exit status: 0 ok, 1 runtime failure, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	char name[64];
	size_t i;

	/* argp's own usage errors exit with our usage status. */
	argp_err_exit_status = EXIT_USAGE;
	text_stdout_install();
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return text_stdout_finish(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("copyprof %s\n", COPYPROF_VERSION);
		return text_stdout_finish(EXIT_OK);
	}
	for (i = 0; i < NR_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* So that argp's messages say "copyprof record", not "record". */
		snprintf(name, sizeof(name), "copyprof %s", commands[i].name);
		argv[1] = name;
		return text_stdout_finish(commands[i].fn(argc - 1, argv + 1));
	}
	fprintf(stderr, "copyprof: '%s' is not a command\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
