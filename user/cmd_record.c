// SPDX-License-Identifier: GPL-2.0
/* cmd_record.c: `copyprof record`: histogram copy lengths at probes and write a profile */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/child.h"
#include "commands.h"
#include "sites/copy_family.h"
#include "kernel/feature.h"
#include "record/hist_session.h"
#include "kernel/kdebuginfo.h"
#include "profile/ksource.h"
#include "kernel/ksyms.h"
#include "lib/log.h"
#include "lib/monotime.h"
#include "record/probe_site.h"
#include "record/record_plan.h"
#include "profile/profile.h"
#include "record/record_sample.h"
#include "record/sample_session.h"
#include "profile/site_callers.h"
#include "lib/stop.h"
#include "lib/host.h"

struct record_args {
	struct probe_site sites[CP_MAX_SITES];
	int nr_sites;
	double duration;
	uint32_t pid;
	const char *comm;
	const char *output;
	char **command;
	struct record_plan_args plan;	/* -p, --site, --entry */
	/* --sample (record_sample.c) */
	bool sample;
	uint32_t hz;
	const char *event;
	const char *cgroup;
	int nr_leaves;
	const char *debuginfo[KDEBUGINFO_MAX_PATHS];	/* --debuginfo, then --vmlinux */
	size_t nr_debuginfo;
};

enum { OPT_UPROBE = 0x100, OPT_PID, OPT_KPROBE, OPT_HWBP, OPT_SAMPLE, OPT_LEAF, OPT_CGROUP,
       OPT_SITE, OPT_ENTRY, OPT_VMLINUX, OPT_DEBUGINFO };

static const struct argp_option options[] = {
	{ "preset", 'p', "PRESET", 0, "Probe the kernel sites of preset PRESET (btrfs, iov_iter, "
	  "clear_user, or a .preset file): the planner picks kprobe, hwbp or sampling per site" },
	{ "site", OPT_SITE, "[MOD:]FUNC[+OFF][,len=REG]", 0, "Probe every copy-family call inside "
	  "kernel function FUNC, or the one at +OFF (repeatable)" },
	{ "entry", OPT_ENTRY, "[MOD:]SYMBOL[,len=REG]", 0, "Probe a kernel function's entry where the "
	  "kernel allows it; otherwise the planner says why and lists its callers (repeatable)" },
	{ "vmlinux", OPT_VMLINUX, "PATH", 0, "Kernel text from this vmlinux/vmlinuz when /proc/kcore "
	  "is missing" },
	{ "debuginfo", OPT_DEBUGINFO, "PATH", 0, "Kernel DWARF for sites' file:line and stage labels: "
	  "a debug vmlinux or .ko, or a folder such as an unpacked linux-image-*-dbg (repeatable; "
	  "/usr/lib/debug and DEBUGINFOD_URLS are searched too)" },
	{ "uprobe", OPT_UPROBE, "PATH:SYMBOL[+OFF][,len=REG]", 0,
	  "Probe a user-space function (repeatable). REG: arg1..arg6 or rax..r15; default "
	  "len=arg3,dst=arg1,src=arg2 (memcpy-like); len=arg2 means clear-like (no source)" },
	{ "kprobe", OPT_KPROBE, "[MOD:]FUNC[+OFF][,len=REG]", 0,
	  "Probe a kernel function entry or instruction with a kprobe (repeatable; same options)" },
	{ "hwbp", OPT_HWBP, "[MOD:]FUNC[+OFF][,len=REG]", 0,
	  "Probe a kernel instruction with a hardware execution breakpoint (at most 4 at once; "
	  "works on notrace code, not on noinstr code)" },
	{ "sample", OPT_SAMPLE, "HZ", OPTION_ARG_OPTIONAL,
	  "Sample every CPU at HZ (default 999) instead of probing: copy-family samples with their "
	  "callers, stacks and recovered lengths (docs/sampling.md)" },
	{ "event", 'e', "EVENT", 0, "With --sample: cycles (default; cpu-clock where the PMU has "
	  "none), ref-cycles, instructions or cpu-clock" },
	{ "leaf", OPT_LEAF, "SYMBOL", 0, "With --sample: also count kernel function SYMBOL as a "
	  "copy routine (repeatable)" },
	{ "cgroup", OPT_CGROUP, "PATH", 0, "With --sample: only tasks in cgroup v2 directory PATH" },
	{ "duration", 'd', "SECONDS", 0, "Stop after SECONDS (default: when COMMAND exits, or on "
	  "Ctrl-C)" },
	{ "pid", OPT_PID, "PID", 0, "Count only calls made by process PID (all its threads)" },
	{ "comm", 'c', "NAME", 0, "Count only calls made by threads whose command name is NAME" },
	{ "output", 'o', "FILE", 0, "Write the profile to FILE (default copyprof.json; - for stdout)" },
	{ "verbose", 'v', NULL, 0, "Show libbpf's messages" },
	{},
};

static const char doc[] =
	"Histogram the lengths of copies at probes and write a profile.\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof record --uprobe ./app:my_memcpy -- ./app       # record while ./app runs\n"
	"  copyprof record --uprobe libfoo.so:foo_clear,len=arg2 -d 10 --pid 1234\n"
	"  copyprof record --uprobe /usr/bin/zstd:ZSTD_decompressStream+0x40,len=rdx -d 5\n"
	"  copyprof record -p btrfs -- cat /mnt/btrfs/bigfile          # zstd flush/load sites\n"
	"  copyprof record --site ZSTD_decompressStream --entry read_zero -d 10\n"
	"  copyprof record --kprobe ZSTD_decompressStream+0x794,len=rdx -d 10\n"
	"  copyprof record --hwbp read_zero,len=arg3 -- dd if=/dev/zero of=/dev/null count=100\n"
	"  copyprof record --sample -d 10 -o fleet.json                 # every CPU, 999 Hz\n"
	"  copyprof record --sample=4999 -- dd if=/dev/zero of=/dev/null bs=1M count=20000\n"
	"  copyprof record --sample --cgroup /sys/fs/cgroup/system.slice --leaf memcpy_toio -d 5\n"
	"\n"
	"Exit status: 0 profile written, 1 runtime failure, 2 usage error.";

static void add_site(struct argp_state *state, enum probe_mech mech, const char *arg)
{
	struct record_args *a = state->input;
	struct probe_site *s = &a->sites[a->nr_sites];
	char err[256];
	int ret;

	if (a->nr_sites == CP_MAX_SITES)
		argp_error(state, "at most %d sites", CP_MAX_SITES);
	s->mech = mech;
	ret = mech == MECH_UPROBE ? target_spec_parse(arg, &s->spec, err, sizeof(err)) :
				    target_spec_parse_kernel(arg, &s->spec, err, sizeof(err));
	if (ret)
		argp_error(state, "--%s %s: %s", probe_mech_name(mech), arg, err);
	a->nr_sites++;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct record_args *a = state->input;
	char *end;

	switch (key) {
	case OPT_UPROBE:
		add_site(state, MECH_UPROBE, arg);
		break;
	case OPT_KPROBE:
		add_site(state, MECH_KPROBE, arg);
		break;
	case OPT_HWBP:
		add_site(state, MECH_HWBP, arg);
		break;
	case 'p':
	case OPT_SITE:
	case OPT_ENTRY: {
		struct record_plan_args *pl = &a->plan;
		int *n = key == 'p' ? &pl->nr_presets : key == OPT_SITE ? &pl->nr_sites :
				      &pl->nr_entries;
		const char **v = key == 'p' ? pl->presets : key == OPT_SITE ? pl->sites : pl->entries;

		if (*n == RECORD_PLAN_MAX)
			argp_error(state, "at most %d of each of -p, --site and --entry",
				   RECORD_PLAN_MAX);
		v[(*n)++] = arg;
		break;
	}
	case OPT_DEBUGINFO:
		if (a->nr_debuginfo == KDEBUGINFO_MAX_PATHS - 1)
			argp_error(state, "at most %d --debuginfo paths", KDEBUGINFO_MAX_PATHS - 1);
		a->debuginfo[a->nr_debuginfo++] = arg;
		break;
	case OPT_VMLINUX:
		a->plan.vmlinux = arg;
		break;
	case OPT_SAMPLE:
		a->sample = true;
		a->hz = RECORD_SAMPLE_DEFAULT_HZ;
		errno = 0;
		if (arg && ((a->hz = (uint32_t)strtoul(arg, &end, 10)), errno || *end || !a->hz))
			argp_error(state, "--sample=%s: give a frequency in Hz", arg);
		break;
	case 'e':
		if (sample_event_parse(arg) < 0)
			argp_error(state, "-e %s: not an event copyprof samples (cycles, ref-cycles, "
					  "instructions, cpu-clock)", arg);
		a->event = arg;
		break;
	case OPT_LEAF:
		if (copy_family_add_leaf(arg))
			argp_failure(state, EXIT_RUNTIME, ENOMEM, "--leaf");
		a->nr_leaves++;
		break;
	case OPT_CGROUP:
		a->cgroup = arg;
		break;
	case 'd':
		errno = 0;
		a->duration = strtod(arg, &end);
		if (errno || *end || a->duration <= 0)
			argp_error(state, "-d %s: give a positive number of seconds", arg);
		break;
	case OPT_PID:
		errno = 0;
		a->pid = (uint32_t)strtoul(arg, &end, 10);
		if (errno || *end || !a->pid)
			argp_error(state, "--pid %s: not a process id", arg);
		break;
	case 'c':
		if (strlen(arg) >= CP_COMM_LEN)
			argp_error(state, "--comm %s: command names have at most %d characters",
				   arg, CP_COMM_LEN - 1);
		a->comm = arg;
		break;
	case 'o':
		a->output = arg;
		break;
	case 'v':
		log_verbose = true;
		break;
	case ARGP_KEY_ARGS:
		a->command = state->argv + state->next;
		break;
	case ARGP_KEY_END:
		if (!a->sample && (a->event || a->nr_leaves || a->cgroup))
			argp_error(state, "-e, --leaf and --cgroup go with --sample");
		if (!a->nr_sites && !a->sample && !record_plan_wanted(&a->plan))
			argp_error(state, "nothing to probe: give -p PRESET, --site, --entry, --uprobe, "
					  "--kprobe or --hwbp, or --sample");
		if ((a->nr_sites || record_plan_wanted(&a->plan)) && a->sample)
			argp_error(state, "--sample and probe sites exclude each other");
		if (a->command && a->pid)
			argp_error(state, "--pid and a COMMAND exclude each other");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Resolves every site into a profile site; all problems are reported, not just the first. */
static int resolve_sites(struct record_args *a, struct profile *p)
{
	int i, bad = 0;

	for (i = 0; i < a->nr_sites; i++) {
		struct profile_site *s;

		if (probe_site_resolve(&a->sites[i])) {
			bad++;
			continue;
		}
		s = profile_add_site(p);
		if (!s)
			return -ENOMEM;
		probe_site_describe(&a->sites[i], s);
	}
	return bad ? -ENOENT : 0;
}

static int attach_sites(struct hist_session *hs, struct record_args *a)
{
	int i, attached = 0;

	/* A site that fails to attach does not stop the others. */
	for (i = 0; i < a->nr_sites; i++)
		if (!probe_site_attach(&a->sites[i], hs, (uint32_t)i))
			attached++;
	if (attached && attached < a->nr_sites)
		p_warn("%d of %d sites attached; the others record nothing", attached, a->nr_sites);
	return attached;
}

static bool uses(const struct record_args *a, enum probe_mech mech)
{
	int i;

	for (i = 0; i < a->nr_sites; i++)
		if (a->sites[i].mech == mech)
			return true;
	return false;
}

static bool counts_callers(const struct record_args *a)
{
	int i;

	for (i = 0; i < a->nr_sites; i++)
		if (probe_site_counts_callers(&a->sites[i]))
			return true;
	return false;
}

static void wait_for_end(struct record_args *a, struct child *c)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	struct stop_when w;

	stop_when_init(&w, a->duration, a->command ? c : NULL);
	while (!stop_when_due(&w))
		nanosleep(&tick, NULL);
}

/* Entry sites counted per caller: name the return addresses while kallsyms still holds them. */
static void name_callers(struct profile *p)
{
	struct ksyms *ks;
	size_t i;

	for (i = 0; i < p->nr_sites && !p->sites[i].nr_callers; i++)
		;
	if (i == p->nr_sites || !(ks = ksyms_load(NULL)))
		return;
	site_callers_name(p, ks);
	ksyms_free(ks);
}

static void print_summary(const struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];

		printf("site %u %s:%s+0x%llx (%s, len=%s): %llu calls, %llu bytes, mean %.1f\n",
		       s->id, s->target, s->symbol, (unsigned long long)s->offset, s->mechanism,
		       s->len_arg, (unsigned long long)s->calls, (unsigned long long)s->bytes,
		       s->calls ? (double)s->bytes / (double)s->calls : 0.0);
	}
}

static int record(struct record_args *a)
{
	struct hist_filter filter = { .tgid = a->pid, .comm = a->comm };
	struct child child = CHILD_NONE;
	struct hist_session *hs = NULL;
	struct profile *p = profile_new();
	int err = EXIT_RUNTIME, i;
	double t0;

	if (!p || resolve_sites(a, p) || feature_check_bpf() ||
	    (uses(a, MECH_UPROBE) && feature_check_uprobes()) ||
	    (uses(a, MECH_KPROBE) && feature_check_kprobes()))
		goto out;
	stop_install();
	if (a->command) {
		if (child_spawn(a->command, &child))
			goto out;
		/*
		 * Kernel copies made on the command's behalf often run in other tasks (btrfs
		 * decompresses in kworkers), so kernel sites count every task while it runs.
		 */
		if (uses(a, MECH_KPROBE) || uses(a, MECH_HWBP))
			p_info("kernel sites count every task while '%s' runs (--pid/--comm narrow "
			       "it)", a->command[0]);
		else
			filter.tgid = (uint32_t)child.pid;
		p->meta.command = child_command_line(a->command);
	}
	hs = hist_session_open(&filter, (uint32_t)a->nr_sites, counts_callers(a));
	if (!hs || !attach_sites(hs, a)) {
		p_err("no site could be attached; nothing to record");
		goto out;
	}
	host_fill_meta(&p->meta);
	t0 = monotime_s();
	if (a->command && child_release(&child, a->command[0]))
		goto out;
	if (!a->command && !a->duration)
		p_info("recording %d site(s); Ctrl-C to end", a->nr_sites);
	wait_for_end(a, &child);
	p->meta.duration_s = monotime_s() - t0;
	for (i = 0; i < a->nr_sites; i++)
		if (hist_session_collect(hs, (uint32_t)i, &p->sites[i]))
			goto out;
	if (hist_session_collect_callers(hs, p->sites, (uint32_t)a->nr_sites))
		goto out;
	hist_session_destroy(hs);
	hs = NULL;
	name_callers(p);
	if (a->plan.vmlinux)	/* a debug vmlinux gives lines too */
		a->debuginfo[a->nr_debuginfo++] = a->plan.vmlinux;
	ksource_annotate(p, a->debuginfo, a->nr_debuginfo);
	print_summary(p);
	fflush(stdout);
	if (profile_save(p, a->output))
		goto out;
	err = EXIT_OK;
out:
	hist_session_destroy(hs);
	if (a->command)
		child_end(&child, a->command[0], !err);
	for (i = 0; i < a->nr_sites; i++)
		probe_site_free(&a->sites[i]);
	profile_free(p);
	return err;
}

int cmd_record(int argc, char **argv)
{
	static struct record_args args;
	const struct argp argp = { options, parse_opt, "[-- COMMAND [ARGS...]]", doc };
	bool plan_fallback = false;

	memset(&args, 0, sizeof(args));
	args.output = "copyprof.json";

	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	log_setup_libbpf();
	if (record_plan_wanted(&args.plan)) {
		if (record_plan_sites(&args.plan, args.sites, &args.nr_sites, CP_MAX_SITES) < 0)
			return EXIT_RUNTIME;
		/* The planner's last resort: what no probe can reach, sampling still sees. */
		if (!args.nr_sites) {
			p_warn("no site of the plan can be probed on this kernel: recording with "
			       "--sample instead%s", args.command ? ", every task while the command "
			       "runs (kernel work such as decompression runs in kworkers)" : "");
			args.sample = true;
			args.hz = RECORD_SAMPLE_DEFAULT_HZ;
			plan_fallback = true;
		}
	}
	if (args.sample) {
		struct record_sample_args rs = {
			.run = { .pid = args.pid, .comm = args.comm, .duration = args.duration,
				 .command = args.command, .all_tasks = plan_fallback,
				 .output = args.output },
			.hz = args.hz, .event = args.event, .cgroup = args.cgroup,
		};
		int ret = record_sample_run(&rs);

		copy_family_reset();
		return ret;
	}
	return record(&args);
}
