// SPDX-License-Identifier: GPL-2.0
/* cmd_targets.c: the probe target options of record and agent, parsed once (an argp child) */
#include "cmd_targets.h"
#include "lib/log.h"
#include "record/target_spec.h"

enum {
	OPT_UPROBE = 0x3000,
	OPT_KPROBE,
	OPT_HWBP,
	OPT_SITE,
	OPT_ENTRY,
	OPT_VMLINUX,
};

static const struct argp_option options[] = {
	{ "preset", 'p', "PRESET", 0,
	  "Probe the kernel sites of preset PRESET (btrfs, iov_iter, "
	  "clear_user, or a .preset file): the planner picks kprobe, hwbp or sampling per site" },
	{ "site", OPT_SITE, "[MOD:]FUNC[+OFF][,len=REG]", 0,
	  "Probe every copy-family call inside "
	  "kernel function FUNC, or the one at +OFF (repeatable)" },
	{ "entry", OPT_ENTRY, "[MOD:]SYMBOL[,len=REG]", 0,
	  "Probe a kernel function's entry where the "
	  "kernel allows it; otherwise the planner says why and lists its callers (repeatable)" },
	{ "vmlinux", OPT_VMLINUX, "PATH", 0,
	  "Kernel text from this vmlinux/vmlinuz when /proc/kcore "
	  "is missing" },
	{ "uprobe", OPT_UPROBE, "PATH:SYMBOL[+OFF][,len=REG]", 0,
	  "Probe a user-space function (repeatable). REG: arg0..arg5 (from 0, as in bpftrace) or "
	  "rax..r15; default len=arg2,dst=arg0,src=arg1 (memcpy-like); len=arg1 means clear-like "
	  "(no source). Symbols also come from debug files (/usr/lib/debug, .gnu_debuglink, "
	  "debuginfod); PATH:0xOFFSET probes a file offset" },
	{ "kprobe", OPT_KPROBE, "[MOD:]FUNC[+OFF][,len=REG]", 0,
	  "Probe a kernel function entry or instruction with a kprobe (repeatable; same options)" },
	{ "hwbp", OPT_HWBP, "[MOD:]FUNC[+OFF][,len=REG]", 0,
	  "Probe a kernel instruction with a hardware execution breakpoint (more than 4 take turns "
	  "on the debug registers, counts scaled; works on notrace code, not on noinstr code)" },
	{},
};

static void add_site(struct argp_state *state, enum probe_mech mech, const char *arg)
{
	struct cmd_targets *t = state->input;
	char err[256];

	if (*t->nr_sites == t->max_sites)
		argp_error(state, "at most %d sites", t->max_sites);
	if (probe_site_parse(&t->sites[*t->nr_sites], mech, arg, err, sizeof(err)))
		argp_error(state, "--%s %s: %s", probe_mech_name(mech), arg, err);
	(*t->nr_sites)++;
}

/* -p, --site or --entry: a name for the planner; specs are checked here (exit 2). */
static void add_planned(struct argp_state *state, int key, const char *arg)
{
	struct record_plan_args *pl = ((struct cmd_targets *)state->input)->plan;
	int *n = key == 'p' ? &pl->nr_presets : key == OPT_SITE ? &pl->nr_sites : &pl->nr_entries;
	const char **v = key == 'p' ? pl->presets : key == OPT_SITE ? pl->sites : pl->entries;

	if (*n == RECORD_PLAN_MAX)
		argp_error(state, "at most %d of each of -p, --site and --entry", RECORD_PLAN_MAX);
	if (key != 'p') {
		struct target_spec t;
		char err[160];

		if (target_spec_parse_kernel(arg, &t, err, sizeof(err)))
			argp_error(state, "--%s %s: %s", key == OPT_SITE ? "site" : "entry", arg,
				   err);
		target_spec_free(&t);
	}
	v[(*n)++] = arg;
}

static error_t parse_targets(int key, char *arg, struct argp_state *state)
{
	struct cmd_targets *t = state->input;

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
	case OPT_ENTRY:
		add_planned(state, key, arg);
		break;
	case OPT_VMLINUX:
		t->plan->vmlinux = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp cmd_targets_argp = { options, parse_targets };
