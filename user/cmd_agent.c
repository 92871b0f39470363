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
};

static const struct cmd_options_spec common_options = {
	.verbose_help = "Show libbpf's messages",
};

static const struct argp_option options[] = {
	{ "sample", OPT_SAMPLE, "HZ", OPTION_ARG_OPTIONAL,
	  "Sampling is not served live yet: record --sample writes a profile (docs/fleet.md)" },
	{ "pid", OPT_PID, "PID", 0, "Count only calls made by process PID" },
	{ "comm", 'c', "NAME", 0, "Count only calls made by threads named NAME" },
	{ "listen", OPT_LISTEN, "ADDR:PORT", 0,
	  "Where to serve (default " AGENT_HTTP_DEFAULT_LISTEN ": this host only). Beyond "
	  "loopback, --web-config with TLS and users is required" },
	{ "web-config", OPT_WEB_CONFIG, "FILE", 0,
	  "TLS certificate and key, and basic-auth users with bcrypt hashes, in the "
	  "exporter-toolkit web.config.yml shape" },
	{ "max-overhead", OPT_MAX_OVERHEAD, "PCT", 0,
	  "Budget: BPF run time plus the agent's CPU time, in percent of one CPU (default 1; 0: "
	  "none). Over it, the hottest site is detached, logged and shown in /metrics" },
	{ "replan", OPT_REPLAN, "SECONDS", 0,
	  "Re-plan every SECONDS (default 60; 0: only on SIGHUP): modules loaded later, sites "
	  "that failed" },
	{ "host", OPT_HOST, "NAME", 0, "The host label (default: the host name)" },
	{ "keep-privileges", OPT_KEEP_PRIVS, NULL, 0,
	  "Keep every capability after attaching (default: keep only CAP_BPF, CAP_PERFMON, "
	  "CAP_SYSLOG and CAP_SYS_ADMIN, which re-plans need)" },
	{},
};

static const char doc[] =
	"Record copy lengths without end and serve the live counters over HTTP: /metrics\n"
	"(OpenMetrics histograms, monotonic since the agent started), /profile (a copyprof\n"
	"profile: report, merge, estimate and flamegraph read it) and /debug/pprof/profile\n"
	"(pprof). Kernel addresses are never served. SIGTERM or SIGINT detaches every probe\n"
	"and exits 0; SIGHUP re-plans (docs/fleet.md).\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof agent -p btrfs                               # 127.0.0.1:9477\n"
	"  copyprof agent --uprobe /usr/bin/zstd:ZSTD_decompressStream+0x40,len=rdx\n"
	"  copyprof agent -p btrfs --listen 0.0.0.0:9477 --web-config /etc/copyprof/web.yml\n"
	"  copyprof agent --uprobe ./app:my_memcpy --max-overhead 0.5 --host web-17\n"
	"  curl -s 127.0.0.1:9477/profile > now.json && copyprof report -i now.json\n"
	"\n"
	"Exit status: 0 ended by a signal, 1 runtime failure (port in use, nothing to load),\n"
	"2 usage error (bad listen address, loopback rule).";

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
		argp_error(state, "--sample: the agent counts at probes only so far; "
				  "use record --sample for a sampled profile");
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
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (!a->nr_sites && !record_plan_wanted(&a->plan))
			argp_error(state, "nothing to probe: give -p PRESET, --site, --entry, "
					  "--uprobe, --kprobe or --hwbp");
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
