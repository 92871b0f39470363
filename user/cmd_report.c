// SPDX-License-Identifier: GPL-2.0
/* cmd_report.c: `copyprof report`: per-site histograms, totals and top sizes of a profile */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_options.h"
#include "commands.h"
#include "lib/hist_print.h"
#include "kernel/kdebuginfo.h"
#include "profile/ksource.h"
#include "lib/log.h"
#include "lib/count_sum.h"
#include "lib/kube_cgroup.h"
#include "lib/num_format.h"
#include "profile/profile.h"
#include "sites/len_recovery.h"
#include "profile/profile_args.h"
#include "profile/profile_mux.h"
#include "cmd_report_sample.h"
#include "cmd_report_sort.h"

struct report_args {
	struct cmd_options common; /* -i, -o, --json, -v */
	int top;
	bool top_set;
	struct report_sort sort; /* --sort; nr_keys 0: per-site sections */
	const char *debuginfo[KDEBUGINFO_MAX_PATHS];
	size_t nr_debuginfo;
};

enum { OPT_TOP = 0x100, OPT_DEBUGINFO, OPT_SORT };

static const struct cmd_options_spec common_options = {
	.input_arg = "FILE",
	.input_help = "Profile to read (default copyprof.json)",
	.json_help = "Print the normalised profile as JSON instead",
};

static const struct argp_option options[] = {
	{ "top", OPT_TOP, "N", 0,
	  "How many top sizes to list per site (default 8); with --sort, rows (default all)" },
	{ "sort", OPT_SORT, "KEYS", 0,
	  "Copies grouped by KEYS, comma-separated, as perf report --sort: comm, pid (the "
	  "process, as pid:comm), site, caller; most first, with their samples (sampled sites) "
	  "or calls (counted ones: site and caller only) and share" },
	{ "debuginfo", OPT_DEBUGINFO, "PATH", 0,
	  "Kernel DWARF for kernel sites recorded without "
	  "lines: a debug vmlinux or .ko, or a folder such as an unpacked linux-image-*-dbg "
	  "(repeatable; /usr/lib/debug and DEBUGINFOD_URLS are searched too)" },
	{},
};

static const char doc[] =
	"Print a profile: per-site length histograms with counts and bytes, totals, top sizes.\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof report                      # reads copyprof.json\n"
	"  copyprof report -i btrfs.json --top 3\n"
	"  copyprof report -i a.json --json | jq '.sites[0].calls'\n"
	"  copyprof report -i sampled.json --sort comm        # who copies\n"
	"  copyprof report -i sampled.json --sort pid,site\n"
	"  copyprof report -i btrfs.json \\\n"
	"      --debuginfo "
	"/usr/lib/debug/boot/vmlinux-6.12.117+deb12-amd64\n"
	"\n"
	"Exit status: 0 ok, 1 unreadable profile, 2 usage error.";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct report_args *a = state->input;
	char *end;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		break;
	case OPT_TOP:
		a->top = (int)strtol(arg, &end, 10);
		if (*end || a->top < 0)
			argp_error(state, "--top %s: give a count", arg);
		a->top_set = true;
		break;
	case OPT_SORT: {
		char why[128];

		if (report_sort_parse(arg, &a->sort, why, sizeof(why)))
			argp_error(state, "--sort %s: %s", arg, why);
		break;
	}
	case OPT_DEBUGINFO:
		if (a->nr_debuginfo == KDEBUGINFO_MAX_PATHS)
			argp_error(state, "at most %d --debuginfo paths", KDEBUGINFO_MAX_PATHS);
		a->debuginfo[a->nr_debuginfo++] = arg;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s' (the profile is given with -i)", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ?: "?";
}

/* "  source: copyload.c:17 (inlined: outer at a.c:9 > inner at a.c:30)", outermost first. */
static void print_source(const struct source_pos *src)
{
	size_t i;

	printf("  source: %s:%u", base_name(src->file), src->line);
	for (i = 0; i < src->nr_inlined; i++)
		printf("%s%s at %s:%u", i ? " > " : " (inlined: ", src->inlined[i].function ?: "?",
		       base_name(src->inlined[i].file), src->inlined[i].line);
	puts(src->nr_inlined ? ")" : "");
}

/* An entry site's callers, most calls first: "    vfs_read+0x9e  1000 calls ..." */
static void print_callers(const struct profile_site *s, int top)
{
	size_t i, n = s->nr_callers < (size_t)top ? s->nr_callers : (size_t)top;
	char name[160], n1[NUM_FORMAT_LEN], n2[NUM_FORMAT_LEN];

	printf("  callers: %zu%s", s->nr_callers, n < s->nr_callers ? ", the top ones:" : "");
	if (s->caller_misses)
		printf(" (%s calls not attributed: the caller table was full)",
		       num_format(s->caller_misses, n1));
	putchar('\n');
	for (i = 0; i < n; i++) {
		const struct profile_caller *c = &s->callers[i];

		/* "vfs_read+0xe7", "btrfs:f+0x10", a user file by its base name "app:f+0x3a". */
		snprintf(name, sizeof(name), "%s%s%s+0x%llx",
			 c->target && strcmp(c->target, "vmlinux") ? base_name(c->target) : "",
			 c->target && strcmp(c->target, "vmlinux") ? ":" : "", c->symbol ?: "?",
			 (unsigned long long)c->offset);
		printf("    %-44s %13s calls %18s bytes  mean %.1f\n", name,
		       num_format(c->calls, n1), num_format(c->bytes, n2),
		       c->calls ? (double)c->bytes / (double)c->calls : 0.0);
	}
}

/* One cgroup's row: its calls, their share, its path and the pod the kubelet's layout names. */
static void print_cgroup_row(const char *path, uint64_t calls, uint64_t total)
{
	struct kube_cgroup k;
	char n1[NUM_FORMAT_LEN];

	printf("    %13s calls %5.1f%%  %s", num_format(calls, n1),
	       total ? 100.0 * (double)calls / (double)total : 0.0, path);
	if (strcmp(path, "other") && kube_cgroup_parse(path, &k))
		printf("  (pod %s, %s%s%.12s)", k.pod_uid, k.qos,
		       k.container_id[0] ? ", container " : "", k.container_id);
	putchar('\n');
}

/* Calls by cgroup (profile-format.md#cgroups): the top ones, then the rest as other. */
static void print_cgroups(const struct profile_site *s)
{
	const struct site_cgroups *c = &s->cgroups;
	char unnamed[48];
	uint32_t i;

	printf("  cgroups: %u%s\n", c->nr, c->other ? " and other" : "");
	for (i = 0; i < c->nr; i++) {
		snprintf(unnamed, sizeof(unnamed), "[id %llu, gone]",
			 (unsigned long long)c->v[i].id);
		print_cgroup_row(c->v[i].path ?: unnamed, c->v[i].calls, s->calls);
	}
	if (c->other)
		print_cgroup_row("other", c->other, s->calls);
}

/*
 * A sampled site counts samples, not calls: a long copy is sampled more often than a short
 * one, and only lengths recovered from registers are in its histogram.
 */
static void print_sampled_counts(const struct profile *p, const struct profile_site *s)
{
	const uint64_t *q = s->sample->quality;
	uint64_t known = q[LEN_EXACT] + q[LEN_APPROX];

	printf("  samples %llu (not calls)  lengths recovered %llu (exact %llu, approximate "
	       "%llu), unknown %llu\n",
	       (unsigned long long)s->calls, (unsigned long long)known,
	       (unsigned long long)q[LEN_EXACT], (unsigned long long)q[LEN_APPROX],
	       (unsigned long long)q[LEN_UNKNOWN]);
	if (known)
		printf("  histogram: samples inside copies of each length (time-weighted)\n");
	else if (p->sample && !p->sample->hz)
		printf("  (no length: imported from perf, whose samples carry no registers that "
		       "import-perf reads; copyprof record --sample recovers lengths)\n");
	else
		printf("  (no length: no rule recovers it at this site; copyprof report -v and "
		       "docs/sampling.md say why)\n");
}

static void print_site(const struct profile *p, const struct profile_site *s, int top)
{
	char mux[64], n1[NUM_FORMAT_LEN], n2[NUM_FORMAT_LEN];
	struct hist_slot dense[CP_NBUCKETS];

	printf("site %u: %s:%s+0x%llx%s%s%s  (%s, len=%s)\n", s->id, s->target ?: "?",
	       s->symbol ?: "?", (unsigned long long)s->offset, s->label ? " [" : "",
	       s->label ?: "", s->label ? "]" : "", s->mechanism ?: "?", s->len_arg ?: "?");
	if (s->source)
		print_source(s->source);
	if (s->sample)
		print_sampled_counts(p, s);
	else
		printf("  calls %s  bytes %s  mean %.1f\n", num_format(s->calls, n1),
		       num_format(s->bytes, n2),
		       s->calls ? (double)s->bytes / (double)s->calls : 0.0);
	if (*site_mux_describe(s, mux, sizeof(mux)))
		printf("  %s: %s calls counted in %.3f of %.3f s\n", mux,
		       num_format(s->mux->raw_calls, n1), (double)s->mux->running_ns / 1e9,
		       (double)s->mux->enabled_ns / 1e9);
	sparse_hist_dense(&s->buckets, dense);
	if (!s->sample || s->sample->quality[LEN_EXACT] + s->sample->quality[LEN_APPROX])
		hist_print_log2(stdout, dense);
	if (top)
		hist_print_top(stdout, dense, top);
	if (s->nr_callers || s->caller_misses)
		print_callers(s, top ? top : 8);
	if (s->cgroups.nr || s->cgroups.other)
		print_cgroups(s);
	putchar('\n');
}

/* A merged profile has no one kernel or host: its groups (profile-format.md#groups). */
static void print_groups(const struct profile *p)
{
	size_t i, h;

	printf("merged profile: %zu group%s (never summed across kernels, CPUs or sampling "
	       "rates)\n",
	       p->nr_groups, p->nr_groups == 1 ? "" : "s");
	for (i = 0; i < p->nr_groups; i++) {
		const struct profile_group *g = &p->groups[i];

		printf("  group %zu: kernel %s, cpu %s, %llu profile%s, %.2f s, host%s", i,
		       g->kernel ?: "unknown", g->cpu_model ?: "unknown",
		       (unsigned long long)g->profiles, g->profiles == 1 ? "" : "s", g->duration_s,
		       g->nr_hosts == 1 ? "" : "s");
		for (h = 0; h < g->nr_hosts; h++)
			printf("%s %s", h ? "," : "", g->hosts[h]);
		if (g->sample_hz)
			printf(", sampled at %u Hz", g->sample_hz);
		putchar('\n');
	}
	putchar('\n');
}

/*
 * The last line: calls and bytes of the counted sites, samples of the sampled ones (a sample's
 * length is the copy in progress, not bytes copied, so samples are never added to calls).
 */
static void print_total(const struct profile *p)
{
	count_sum calls = 0, bytes = 0, samples = 0; /* exact past 2^64 (count_sum.h) */
	char n1[COUNT_SUM_LEN], n2[COUNT_SUM_LEN];
	size_t i, sampled = 0;

	for (i = 0; i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];

		if (s->sample) {
			sampled++;
			samples += s->calls;
			continue;
		}
		calls += s->calls;
		bytes += s->bytes;
	}
	printf("total: %zu site(s)", p->nr_sites);
	if (sampled < p->nr_sites)
		printf("%s %s calls, %s bytes", sampled ? ": counted ones" : ",",
		       count_sum_format(calls, n1), count_sum_format(bytes, n2));
	if (sampled)
		printf("%s %s copy samples (not calls)",
		       sampled < p->nr_sites ? "; sampled ones" : ",",
		       count_sum_format(samples, n1));
	putchar('\n');
}

/* The machine, where the profile records it, and CPU flags that are not the recording run's. */
static void print_machine(const struct host_meta *m)
{
	char buf[96];
	size_t i;

	if (!m->machine.known && !m->cpu_flags_unknown)
		return;
	printf("machine: %s; CPU flags", machine_describe(&m->machine, buf, sizeof(buf)));
	if (m->cpu_flags_unknown) {
		/* flags_from says why: "unknown: perf.data records none, ..." */
		printf(" %s\n", m->cpu_flags_from ?: "unknown");
		return;
	}
	for (i = 0; i < m->nr_cpu_flags; i++)
		printf(" %s", m->cpu_flags[i]);
	if (!m->nr_cpu_flags)
		printf(" none");
	if (m->cpu_flags_from)
		printf(" (%s)", m->cpu_flags_from);
	printf("\n");
}

static void print_text(const struct profile *p, int top)
{
	size_t i;

	if (p->nr_groups) {
		print_groups(p);
	} else {
		printf("profile: kernel %s, cpu %s, host %s, %.2f s\n", p->meta.kernel ?: "?",
		       p->meta.cpu_model ?: "?", p->meta.hostname ?: "?", p->meta.duration_s);
		print_machine(&p->meta);
		printf("\n");
	}
	if (report_sample_is_sampled(p))
		report_sample_print(stdout, p, 15);
	for (i = 0; i < p->nr_sites; i++)
		print_site(p, &p->sites[i], top);
	print_total(p);
}

int cmd_report(int argc, char **argv)
{
	struct report_args args = { .common.input = "copyprof.json", .top = 8 };
	struct argp common;
	struct argp_child children[2];
	struct argp argp = { options, parse_opt, NULL, doc, children };
	struct profile *p;

	cmd_options_child(&common_options, &common, children);
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	if (profile_read(args.common.input, &p))
		return EXIT_RUNTIME;
	/* Kernel sites recorded without DWARF get their lines here, as perf report does. */
	if (args.nr_debuginfo || getenv("DEBUGINFOD_URLS"))
		ksource_annotate(p, args.debuginfo, args.nr_debuginfo);
	if (args.sort.nr_keys) {
		int err = report_sort_print(stdout, p, &args.sort, args.top_set ? args.top : 0,
					    args.common.json);

		profile_free(p);
		return err ? EXIT_RUNTIME : EXIT_OK;
	}
	if (args.common.json) {
		/*
		 * The profile as its file has it, site by site, on stdout's text stream (controls
		 * shown escaped; a write error said once, at exit: text_stdout.h).
		 */
		int werr = profile_write_stream(p, stdout);

		if (werr) {
			p_err("cannot write the profile: %s", strerror(-werr));
			profile_free(p);
			return EXIT_RUNTIME;
		}
	} else {
		print_text(p, args.top);
		profile_warn_len_suspects(p);
	}
	profile_free(p);
	return EXIT_OK;
}
