// SPDX-License-Identifier: GPL-2.0
/* cmd_agent.c: `copyprof agent`: a recorder that never ends and serves its live counters over HTTP */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "agent/agent.h"
#include "agent/agent_budget.h"
#include "agent/agent_http.h"
#include "cmd_options.h"
#include "cmd_targets.h"
#include "commands.h"
#include "lib/log.h"

struct agent_cmd_args {
	struct cmd_options common;  /* -v */
	struct cmd_targets targets; /* into sites and a.plan */
	struct agent_args a;
	struct probe_site sites[CP_MAX_SITES];
};

enum {
	OPT_PID = 0x100,
	OPT_LISTEN,
	OPT_WEB_CONFIG,
	OPT_MAX_OVERHEAD,
	OPT_REPLAN,
	OPT_HOST,
	OPT_KEEP_PRIVS,
	OPT_SAMPLE,
	OPT_CGROUP,
	OPT_CGROUPS,
};

static const struct cmd_options_spec common_options = {
	.verbose_help = "Show libbpf's messages",
};

static const struct argp_option options[] = {
	{ "sample", OPT_SAMPLE, "HZ", OPTION_ARG_OPTIONAL,
	  "Sample every CPU at HZ (default 999) instead of probing, as record --sample, served "
	  "live: sampled sites in /profile and pprof, copyprof_copy_samples and "
	  "copyprof_sampled_copy_length_bytes in /metrics (samples, not calls). A plan samples "
	  "what it cannot probe without it" },
	{ "pid", OPT_PID, "PID", 0, "Count only calls made by process PID" },
	{ "comm", 'c', "NAME", 0, "Count only calls made by threads named NAME" },
	{ "cgroup", OPT_CGROUP, "PATH", 0,
	  "Count (and sample) only tasks in cgroup v2 directory PATH or below it, e.g. a pod's "
	  "or a service's; repeatable (up to 8: a task in any of them); copyprof_agent_info names "
	  "them (label cgroup, joined by ','). Turns --cgroups on" },
	{ "cgroups", OPT_CGROUPS, NULL, 0,
	  "Count each counted site's calls by the caller's cgroup too: copyprof_site_cgroup_calls, "
	  "the 8 cgroups with most calls a site and the rest as other, with pod_uid, qos and "
	  "container_id where the path is the kubelet's (on with --cgroup; off by default: tens of "
	  "ns of BPF time per call)" },
	{ "listen", OPT_LISTEN, "ADDR:PORT", 0,
	  "Where to serve (default " AGENT_HTTP_DEFAULT_LISTEN ": this host only). Beyond "
	  "loopback, --web-config with TLS and users is required" },
	{ "web-config", OPT_WEB_CONFIG, "FILE", 0,
	  "TLS certificate and key, and basic-auth users with bcrypt hashes, in the "
	  "exporter-toolkit web.config.yml shape" },
	{ "max-overhead", OPT_MAX_OVERHEAD, "PCT", 0,
	  "Budget: BPF run time plus the agent's CPU time, in percent of one CPU (default 1; 0: "
	  "none). Over it, when the sites' BPF time is to blame, the hottest site moves to "
	  "sampling of its function (uprobes) or is detached, logged and shown in /metrics" },
	{ "replan", OPT_REPLAN, "SECONDS", 0,
	  "Re-plan every SECONDS (default 60; 0: only on SIGHUP): modules loaded later, sites "
	  "that failed" },
	{ "host", OPT_HOST, "NAME", 0, "The host label (default: the host name)" },
	{ "keep-privileges", OPT_KEEP_PRIVS, NULL, 0,
	  "Keep every capability after attaching (default: keep only CAP_BPF, CAP_PERFMON and "
	  "CAP_SYSLOG, and CAP_SYS_ADMIN where re-plans may attach kernel sites or "
	  "perf-event uprobes: docs/fleet.md#privileges)" },
	{},
};

static const char doc[] =
	"Record copy lengths without end and serve the live counters over HTTP: /metrics "
	"(histograms monotonic since the agent started, on fixed bounds up to 64 KiB, and each "
	"site's state: counting, sampled or detached since T; OpenMetrics, Prometheus text 0.0.4 "
	"when Accept prefers text/plain, or protobuf native histograms), /profile (a copyprof "
	"profile: report, merge, estimate and flamegraph read it) and /debug/pprof/profile "
	"(pprof). Kernel addresses are never served. SIGTERM or SIGINT detaches every probe, then "
	"stops the server and exits 0 (1 when a request still holds it 3 s later); SIGHUP "
	"re-plans (docs/fleet.md).\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof agent -p btrfs                               # 127.0.0.1:9477\n"
	"  copyprof agent --uprobe /usr/bin/zstd:ZSTD_decompressStream+0x40,len=rdx\n"
	"  copyprof agent -p btrfs --listen 0.0.0.0:9477 \\\n"
	"      --web-config /etc/copyprof/web.yml\n"
	"  copyprof agent --uprobe ./app:my_memcpy --max-overhead 0.5 --host web-17\n"
	"  copyprof agent --uprobe ./app:my_memcpy \\\n"
	"      --cgroup /sys/fs/cgroup/system.slice/nginx.service\n"
	"  # every CPU, samples not calls\n"
	"  copyprof agent --sample 499\n"
	"  # no kprobes here: sampled instead, as record does\n"
	"  copyprof agent -p clear_user\n"
	"  curl -s 127.0.0.1:9477/profile > now.json && copyprof report -i now.json\n"
	"\n"
	"Exit status: 0 ended by a signal, 1 runtime failure (port in use, nothing to load), 2 "
	"usage error (bad listen address, loopback rule).";

static double parse_num(struct argp_state *state, const char *opt, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || v < 0 || v != v)
		argp_error(state, "%s %s: give a number >= 0", opt, arg);
	return v;
}

static uint32_t parse_hz(struct argp_state *state, const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || *end || !v || v > UINT32_MAX || *arg == '-')
		argp_error(state,
			   "--sample %s: give samples per second per CPU, 1 to %u "
			   "(kernel.perf_event_max_sample_rate bounds it further)",
			   arg, UINT32_MAX);
	return (uint32_t)v;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct agent_cmd_args *c = state->input;
	struct agent_args *a = &c->a;
	char *end;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &c->common;
		state->child_inputs[1] = &c->targets;
		break;
	case OPT_SAMPLE:
		a->sample = true;
		if (arg)
			a->hz = parse_hz(state, arg);
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
	case OPT_CGROUP:
		cmd_cgroup_add(state, arg, a->cgroups, &a->nr_cgroups, &a->by_cgroup);
		break;
	case OPT_CGROUPS:
		a->by_cgroup = true;
		break;
	case OPT_LISTEN:
		a->listen = arg;
		break;
	case OPT_WEB_CONFIG:
		a->web_config = arg;
		break;
	case OPT_MAX_OVERHEAD:
		a->max_overhead_pct = parse_num(state, "--max-overhead", arg);
		if (a->max_overhead_pct > 100 * 1024)
			argp_error(state, "--max-overhead %s: a percentage of one CPU", arg);
		break;
	case OPT_REPLAN:
		a->replan_s = parse_num(state, "--replan", arg);
		break;
	case OPT_HOST:
		a->host = arg;
		break;
	case OPT_KEEP_PRIVS:
		a->keep_privileges = true;
		break;
	case ARGP_KEY_ARG:
		/* "--sample 99": the optional HZ came as a word of its own */
		if (!a->sample || a->hz || !*arg || strspn(arg, "0123456789") != strlen(arg))
			argp_error(state, "unexpected argument '%s'", arg);
		a->hz = parse_hz(state, arg);
		break;
	case ARGP_KEY_END:
		if (!a->nr_sites && !record_plan_wanted(&a->plan) && !a->sample)
			argp_error(state, "nothing to probe: give -p PRESET, --site, --entry, "
					  "--uprobe, --kprobe or --hwbp, or --sample");
		if ((a->nr_sites || record_plan_wanted(&a->plan)) && a->sample)
			argp_error(state, "--sample and probe sites exclude each other: a plan "
					  "samples what it cannot probe by itself");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_agent(int argc, char **argv)
{
	static struct agent_cmd_args args;
	struct argp common;
	struct argp_child children[3];
	struct argp argp = { options, parse_opt, NULL, doc, children };

	memset(&args, 0, sizeof(args));
	args.a.listen = AGENT_HTTP_DEFAULT_LISTEN;
	args.a.max_overhead_pct = AGENT_BUDGET_DEFAULT_PCT;
	args.a.replan_s = AGENT_DEFAULT_REPLAN_S;
	args.a.sites = args.sites;
	args.targets =
		(struct cmd_targets){ &args.a.plan, args.sites, &args.a.nr_sites, CP_MAX_SITES };
	cmd_options_child(&common_options, &common, children);
	children[1] = (struct argp_child){ &cmd_targets_argp };
	children[2] = (struct argp_child){ 0 };
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	log_setup_libbpf();
	return agent_run(&args.a);
}
