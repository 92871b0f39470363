// SPDX-License-Identifier: GPL-2.0
/* main.c: copyprof's subcommand table and dispatch */
#include <argp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "lib/log.h"
#include "lib/text_stdout.h"
#include "measure/paired_child.h"

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
	{ "verify", cmd_verify,
	  "run a program with and without a glibc threshold: its measured CPU time change" },
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

/*
 * Edits between @a and @b, a swap of two neighbours counting as one (optimal string
 * alignment distance), so that "recrod" is one edit from "record", as git counts its typos.
 */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[64][64];

	if (la >= 64 || lb >= 64)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/* "did you mean": the commands at most two edits away (or that @name starts), nearest first. */
static void suggest(FILE *f, const char *name)
{
	size_t i, dist, shown = 0;

	for (dist = 0; dist <= 2; dist++) {
		for (i = 0; i < NR_COMMANDS; i++) {
			const char *c = commands[i].name;
			size_t d = edit_distance(name, c);

			if (strlen(name) >= 3 && !strncmp(c, name, strlen(name)))
				d = d ? 1 : 0; /* a prefix ("rep") is as near as one typo */
			if (d != dist || (d == 2 && strlen(name) < 4))
				continue;
			fprintf(f, "%s%s", shown++ ? ", " : "did you mean: copyprof ", c);
		}
	}
	if (shown)
		fprintf(f, "?\n");
}

int main(int argc, char **argv)
{
	char name[64];
	size_t i;

	/* argp's own usage errors exit with our usage status. */
	argp_err_exit_status = EXIT_USAGE;
	if (getenv(PAIRED_CHILD_ENV)) /* a batch of calibrate --mix, in a process of its own */
		return paired_child_main();
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
	fprintf(stderr, "copyprof: '%s' is not a command\n", argv[1]);
	suggest(stderr, argv[1]);
	fputc('\n', stderr);
	usage(stderr);
	return EXIT_USAGE;
}
