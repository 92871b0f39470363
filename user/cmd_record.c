// SPDX-License-Identifier: GPL-2.0
/* cmd_record.c: `copyprof record`: histogram copy lengths at probes and write a profile */
#include <argp.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_options.h"
#include "cmd_targets.h"
#include "commands.h"
#include "kernel/kdebuginfo.h"
#include "kernel/feature.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "record/target_spec.h"
#include "record/probe_site.h"
#include "record/record_counted.h"
#include "record/record_plan.h"
#include "record/record_sample.h"
#include "record/sample_session.h"
#include "sites/copy_family.h"

struct record_args {
	struct cmd_options common;  /* -i, -o, --json, -v */
	struct cmd_targets targets; /* into sites and plan */
	struct record_run_args run; /* -d, --pid, --comm, -o, COMMAND */
	struct probe_site sites[CP_MAX_SITES];
	int nr_sites;
	struct record_plan_args plan;	    /* -p, --site, --entry */
	struct record_plan_sampled sampled; /* the plan's sites no probe takes: sampled too */
	/* --sample (record_sample.c) */
	bool sample;
	bool hz_given;	  /* --sample=HZ or -F HZ */
	bool every_task;  /* -a */
	bool all_stacks;  /* --all */
	bool user_stacks; /* --user-stacks */
	bool no_callers;  /* --no-callers */
	bool callers;	  /* --callers */
	bool by_cgroup;	  /* --cgroups, or any --cgroup */
	uint32_t hz;
	const char *event;
	const char *cgroups[CP_MAX_CGROUP_FILTERS]; /* --cgroup, repeatable */
	int nr_cgroups;
	int nr_leaves;
	const char *debuginfo[KDEBUGINFO_MAX_PATHS]; /* --debuginfo, then --vmlinux */
	size_t nr_debuginfo;
};

enum {
	OPT_SAMPLE = 0x100,
	OPT_LEAF,
	OPT_CGROUP,
	OPT_DEBUGINFO,
	OPT_ALL,
	OPT_NO_INHERIT,
	OPT_USER_STACKS,
	OPT_NO_CALLERS,
	OPT_CALLERS,
	OPT_CGROUPS,
};

static const struct cmd_options_spec common_options = {
	.output_help = "Write the profile to FILE (default copyprof.json; - for stdout)",
	.verbose_help = "Show libbpf's messages",
};

static const struct argp_option options[] = {
	{ "debuginfo", OPT_DEBUGINFO, "PATH", 0,
	  "Kernel DWARF for sites' file:line and stage labels: "
	  "a debug vmlinux or .ko, or a folder such as an unpacked linux-image-*-dbg (repeatable; "
	  "/usr/lib/debug and DEBUGINFOD_URLS are searched too)" },
	{ "sample", OPT_SAMPLE, "HZ", OPTION_ARG_OPTIONAL,
	  "Sample every CPU at HZ (default 999) instead of probing: copy-family samples with their "
	  "callers, stacks and recovered lengths (docs/sampling.md). --sample 99 works too" },
	{ "freq", 'F', "HZ", 0, "--sample at HZ, as perf record -F" },
	{ "all", OPT_ALL, NULL, 0,
	  "When -p PRESET falls back to sampling: keep every copy sample, not only those whose "
	  "stack goes through the preset's functions" },
	{ "event", 'e', "EVENT", 0,
	  "With --sample: cycles (default; cpu-clock where the PMU has "
	  "none), ref-cycles, instructions or cpu-clock" },
	{ "leaf", OPT_LEAF, "SYMBOL", 0,
	  "With --sample: also count kernel function SYMBOL as a "
	  "copy routine (repeatable)" },
	{ "cgroup", OPT_CGROUP, "PATH", 0,
	  "Only tasks in cgroup v2 directory PATH or below it (counted sites and --sample); "
	  "repeatable: tasks in any of up to 8 directories. Turns --cgroups on" },
	{ "cgroups", OPT_CGROUPS, NULL, 0,
	  "Counted sites count their calls by the caller's cgroup too: the 8 cgroups with most "
	  "calls a site, the rest as other, with the pod where the path is the kubelet's (on "
	  "with --cgroup; off by default: tens of ns of BPF time per call)" },
	{ "no-callers", OPT_NO_CALLERS, NULL, 0,
	  "Entry sites (a function's first instruction: kernel or uprobe) count no callers: one "
	  "map update less per call" },
	{ "callers", OPT_CALLERS, NULL, 0,
	  "Uprobe entry sites count their callers too, exactly (off by default: two hash lookups "
	  "and a read of user memory per call, more BPF time than bpftrace's hist())" },
	{ "user-stacks", OPT_USER_STACKS, NULL, 0,
	  "With --sample: also take each copy sample's user stack (as perf record -g), named from "
	  "the process's maps and ELF symbols; off by default for its cost. Needs frame pointers "
	  "in user code to go past the first frame" },
	{ "duration", 'd', "SECONDS", 0,
	  "Stop after SECONDS (default: when COMMAND exits, or on "
	  "Ctrl-C)" },
	{ "pid", 'P', "PID", 0,
	  "Count only calls made by process PID (all its threads). -P, not perf's -p: -p is "
	  "PRESET" },
	{ "comm", 'c', "NAME", 0,
	  "Count only calls made by threads whose command name is NAME (not perf's -c COUNT)" },
	{ "all-cpus", 'a', NULL, 0,
	  "Every task on every CPU (the default without COMMAND; with COMMAND, not only its "
	  "tasks)" },
	{ "no-inherit", OPT_NO_INHERIT, NULL, 0,
	  "With COMMAND: count its own process only, not the processes it starts (by default "
	  "its children and theirs are counted too, as perf record does)" },
	{ "interval", 'i', "SECONDS", 0,
	  "Print each interval's histograms every SECONDS, as argdist -i; the profile is written "
	  "only with -o" },
	{},
};

static const char doc[] =
	"Histogram the lengths of copies at probes and write a profile.\n"
	"\n"
	"EXAMPLES:\n"
	"  # record while ./app runs\n"
	"  copyprof record --uprobe ./app:my_memcpy -- ./app\n"
	"  # the test runner's children count too; --no-inherit: the runner alone\n"
	"  copyprof record --uprobe ./libfoo.so:foo_copy -- make check\n"
	"  copyprof record --uprobe libfoo.so:foo_clear,len=arg1 -d 10 -P 1234\n"
	"  copyprof record -d 5 \\\n"
	"      --uprobe /usr/bin/zstd:ZSTD_decompressStream+0x40,len=rdx\n"
	"  # glibc's memcpy (libc6-dbg names it; 'libc.so.6:memcpy' says which)\n"
	"  copyprof record \\\n"
	"      --uprobe libc.so.6:__memmove_avx512_unaligned_erms -- ./app\n"
	"  copyprof record --uprobe ./app:0x1714 -- ./app\n"
	"  # who calls my_memcpy, exactly (uprobe callers cost more: off by default)\n"
	"  copyprof record --callers --uprobe ./app:my_memcpy -- ./app\n"
	"  # zstd flush/load sites\n"
	"  copyprof record -p btrfs -- cat /mnt/btrfs/bigfile\n"
	"  copyprof record --site ZSTD_decompressStream --entry read_zero -d 10\n"
	"  copyprof record --kprobe ZSTD_decompressStream+0x794,len=rdx -d 10\n"
	"  copyprof record --hwbp read_zero,len=arg2 -- dd if=/dev/zero of=/dev/null\n"
	"  # every CPU, 999 Hz\n"
	"  copyprof record --sample -d 10 -o fleet.json\n"
	"  copyprof record -F 4999 -- dd if=/dev/zero of=/dev/null bs=1M count=20000\n"
	"  # a histogram each second\n"
	"  copyprof record --uprobe ./app:my_memcpy -i 1 -d 10\n"
	"  copyprof record -o - --uprobe ./app:my_memcpy -- ./app | jq .sites[0].calls\n"
	"  # calls by container: a site's top 8 cgroups, with their pods\n"
	"  copyprof record --cgroups --uprobe libc.so.6:memcpy -d 10\n"
	"  copyprof record --cgroup /sys/fs/cgroup/a --cgroup /sys/fs/cgroup/b \\\n"
	"      --uprobe libc.so.6:memcpy -d 10\n"
	"  copyprof record --sample --cgroup /sys/fs/cgroup/system.slice \\\n"
	"      --leaf memcpy_toio -d 5\n"
	"  # who copies: user stacks too, then samples by process\n"
	"  copyprof record --sample --user-stacks -d 10 -o who.json\n"
	"  copyprof report -i who.json --sort comm\n"
	"\n"
	"With -o -, stdout carries the profile only: the summary and COMMAND's stdout go to "
	"stderr.\n"
	"\n"
	"Exit status: 0 profile written, 1 runtime failure, 2 usage error.";

/* A positive decimal number of Hz; -EINVAL for anything else. */
static int parse_hz(const char *s, uint32_t *hz)
{
	unsigned long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || !v || v > UINT32_MAX)
		return -EINVAL;
	*hz = (uint32_t)v;
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct record_args *a = state->input;
	uint32_t hz;
	char *end;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		state->child_inputs[1] = &a->targets;
		break;
	case OPT_DEBUGINFO:
		if (a->nr_debuginfo == KDEBUGINFO_MAX_PATHS - 1)
			argp_error(state, "at most %d --debuginfo paths", KDEBUGINFO_MAX_PATHS - 1);
		a->debuginfo[a->nr_debuginfo++] = arg;
		break;
	case OPT_SAMPLE:
	case 'F':
		a->sample = true;
		if (!a->hz_given)
			a->hz = RECORD_SAMPLE_DEFAULT_HZ;
		if (!arg)
			break;
		if (parse_hz(arg, &a->hz))
			argp_error(state,
				   "%s %s: give a frequency in Hz, from 1 to %u "
				   "(kernel.perf_event_max_sample_rate bounds it further)",
				   key == 'F' ? "-F" : "--sample", arg, UINT32_MAX);
		a->hz_given = true;
		break;
	case OPT_ALL:
		a->all_stacks = true;
		a->plan.sample_all = true;
		break;
	case 'a':
		a->every_task = true;
		break;
	case OPT_NO_INHERIT:
		a->run.no_inherit = true;
		break;
	case 'i':
		errno = 0;
		a->run.interval = strtod(arg, &end);
		if (errno || *end || !(a->run.interval >= 0.1) || isinf(a->run.interval))
			argp_error(state, "-i %s: give the interval in seconds (at least 0.1)",
				   arg);
		break;
	case 'e':
		if (sample_event_parse(arg) < 0)
			argp_error(state,
				   "-e %s: not an event copyprof samples (cycles, ref-cycles, "
				   "instructions, cpu-clock)",
				   arg);
		a->event = arg;
		break;
	case OPT_LEAF:
		if (copy_family_add_leaf(arg))
			argp_failure(state, EXIT_RUNTIME, ENOMEM, "--leaf");
		a->nr_leaves++;
		break;
	case OPT_CGROUP:
		cmd_cgroup_add(state, arg, a->cgroups, &a->nr_cgroups, &a->by_cgroup);
		break;
	case OPT_CGROUPS:
		a->by_cgroup = true;
		break;
	case OPT_USER_STACKS:
		a->user_stacks = true;
		break;
	case OPT_NO_CALLERS:
		a->no_callers = true;
		break;
	case OPT_CALLERS:
		a->callers = true;
		break;
	case 'd':
		errno = 0;
		a->run.duration = strtod(arg, &end);
		/* nan and inf would record without end: only Ctrl-C stops that (no -d). */
		if (errno || *end || !(a->run.duration > 0) || isinf(a->run.duration))
			argp_error(state, "-d %s: give a positive number of seconds", arg);
		break;
	case 'P': {
		long long pid;

		errno = 0;
		pid = strtoll(arg, &end, 10);
		if (errno || *end || pid < 1 || pid > INT_MAX || !isdigit((unsigned char)*arg))
			argp_error(state, "--pid %s: not a process id (a number from 1 to %d)", arg,
				   INT_MAX);
		a->run.pid = (uint32_t)pid;
		break;
	}
	case 'c':
		if (strlen(arg) >= CP_COMM_LEN)
			argp_error(state, "--comm %s: command names have at most %d characters",
				   arg, CP_COMM_LEN - 1);
		a->run.comm = arg;
		break;
	case ARGP_KEY_ARGS:
		a->run.command = state->argv + state->next;
		/* "--sample 99": the optional HZ came as a word of its own */
		if (!parse_hz(a->run.command[0], &hz)) {
			if (!a->sample || a->hz_given)
				argp_error(state,
					   "'%s' is a number, not a command: for a process id use "
					   "-P %s, for a sampling rate -F %s, for seconds -d %s",
					   a->run.command[0], a->run.command[0], a->run.command[0],
					   a->run.command[0]);
			a->hz = hz;
			a->hz_given = true;
			a->run.command = a->run.command[1] ? a->run.command + 1 : NULL;
		}
		break;
	case ARGP_KEY_END:
		if (!a->sample && (a->event || a->nr_leaves || a->user_stacks))
			argp_error(state, "-e, --leaf and --user-stacks go with --sample");
		if (!a->nr_sites && !a->sample && !record_plan_wanted(&a->plan))
			argp_error(state,
				   "nothing to probe: give -p PRESET, --site, --entry, --uprobe, "
				   "--kprobe or --hwbp, or --sample");
		if ((a->nr_sites || record_plan_wanted(&a->plan)) && a->sample)
			argp_error(state, "--sample and probe sites exclude each other");
		if ((a->no_callers || a->callers) && a->sample)
			argp_error(state,
				   "--callers and --no-callers go with probe sites; --sample "
				   "has stacks");
		if (a->no_callers && a->callers)
			argp_error(state, "--callers and --no-callers exclude each other");
		if (a->run.command && a->run.pid)
			argp_error(state, "--pid and a COMMAND exclude each other");
		if (a->every_task && (a->run.pid || a->run.comm))
			argp_error(state, "-a (every task) and --pid/--comm exclude each other");
		if (a->run.no_inherit && (!a->run.command || a->every_task))
			argp_error(state,
				   "--no-inherit narrows a COMMAND's count to its own process: "
				   "give -- COMMAND, without -a");
		if (a->all_stacks && !record_plan_wanted(&a->plan))
			argp_error(state, "--all widens -p/--site/--entry when they fall back to "
					  "sampling; --sample alone keeps every stack already");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static struct record_args args;
	struct argp common;
	struct argp_child children[3];
	struct argp argp = { options, parse_opt, "[-- COMMAND [ARGS...]]", doc, children };
	struct record_counted_args counted;
	struct record_plan_fallback fb = { 0 };
	int ret;

	/*
	 * First of all: a SIGINT while record starts (planning, kallsyms, loading BPF) must end
	 * the recording as soon as it starts. Installed later, the first SIGINT to a background
	 * record (SIGINT ignored, as a shell script starts it) was lost and a second was needed.
	 */
	stop_install();
	memset(&args, 0, sizeof(args));
	args.targets = (struct cmd_targets){ &args.plan, args.sites, &args.nr_sites, CP_MAX_SITES };
	cmd_options_child(&common_options, &common, children);
	children[1] = (struct argp_child){ &cmd_targets_argp };
	children[2] = (struct argp_child){ 0 };
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	/* With -i the histograms are the output: a profile only when -o asks for one. */
	args.run.output = args.common.output ?: args.run.interval ? NULL : "copyprof.json";
	if (args.every_task)
		args.run.all_tasks = true;
	log_setup_libbpf();
	/* A process that is not there would record nothing, and say so only at the end. */
	if (args.run.pid && kill((pid_t)args.run.pid, 0) && errno == ESRCH) {
		p_err("--pid %u: no such process (list them with ps -e)", args.run.pid);
		return EXIT_RUNTIME;
	}
	/* Before planning: a user without the capabilities hears of them, not of kallsyms. */
	if (feature_check_bpf())
		return EXIT_RUNTIME;
	if (record_plan_wanted(&args.plan)) {
		if (record_plan_sites(&args.plan, args.sites, &args.nr_sites, CP_MAX_SITES,
				      &args.sampled) < 0)
			return EXIT_RUNTIME;
		/* The planner's last resort: what no probe can reach, sampling still sees. */
		ret = record_plan_fallback(&args.plan, args.nr_sites, args.hz_given ? args.hz : 0,
					   "--all", &fb);
		if (ret < 0)
			return EXIT_RUNTIME;
		if (ret) {
			if (fb.every_task && args.run.command)
				p_info("sampling every task while '%s' runs (kernel work such as "
				       "decompression runs in kworkers)",
				       args.run.command[0]);
			args.sample = true;
			args.hz = fb.hz;
			args.run.all_tasks = fb.every_task;
		}
	}
	if (args.sample) {
		struct record_sample_args rs = {
			.run = args.run,
			.hz = args.hz,
			.event = args.event,
			.cgroups = args.cgroups,
			.nr_cgroups = args.nr_cgroups,
			.fallback = fb.why[0] ? fb.why : NULL,
			.keep = (const char *const *)fb.keep,
			.nr_keep = fb.nr_keep,
			.user_stacks = args.user_stacks,
		};
		ret = record_sample_run(&rs);
		record_plan_fallback_free(&fb);
		copy_family_reset();
		return ret;
	}
	if (args.plan.vmlinux) /* a debug vmlinux gives lines too */
		args.debuginfo[args.nr_debuginfo++] = args.plan.vmlinux;
	counted = (struct record_counted_args){
		.run = args.run,
		.sites = args.sites,
		.nr_sites = args.nr_sites,
		.cgroups = args.cgroups,
		.nr_cgroups = args.nr_cgroups,
		.by_cgroup = args.by_cgroup,
		.debuginfo = args.debuginfo,
		.nr_debuginfo = args.nr_debuginfo,
		.sampled = &args.sampled,
		.hz = RECORD_SAMPLE_DEFAULT_HZ,
		.no_callers = args.no_callers,
		.user_callers = args.callers,
	};
	ret = record_counted_run(&counted);
	record_plan_sampled_free(&args.sampled);
	return ret;
}
