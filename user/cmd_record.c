// SPDX-License-Identifier: GPL-2.0
/* cmd_record.c: `copyprof record`: histogram copy lengths at probes and write a profile */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "child.h"
#include "commands.h"
#include "elfsyms.h"
#include "feature.h"
#include "hist_session.h"
#include "log.h"
#include "profile.h"
#include "regs.h"
#include "stop.h"
#include "sysinfo.h"
#include "target_spec.h"

struct record_args {
	struct target_spec specs[CP_MAX_SITES];
	int nr_specs;
	double duration;
	uint32_t pid;
	const char *comm;
	const char *output;
	char **command;
};

enum { OPT_UPROBE = 0x100, OPT_PID };

static const struct argp_option options[] = {
	{ "uprobe", OPT_UPROBE, "PATH:SYMBOL[+OFF][,len=REG]", 0,
	  "Probe a user-space function (repeatable). REG: arg1..arg6 or rax..r15; default "
	  "len=arg3,dst=arg1,src=arg2 (memcpy-like); len=arg2 means clear-like (no source)" },
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
	"\n"
	"Exit status: 0 profile written, 1 runtime failure, 2 usage error.";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct record_args *a = state->input;
	char err[256], *end;

	switch (key) {
	case OPT_UPROBE:
		if (a->nr_specs == CP_MAX_SITES)
			argp_error(state, "at most %d --uprobe sites", CP_MAX_SITES);
		if (target_spec_parse(arg, &a->specs[a->nr_specs], err, sizeof(err)))
			argp_error(state, "--uprobe %s: %s", arg, err);
		a->nr_specs++;
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
		if (!a->nr_specs)
			argp_error(state, "nothing to probe: give at least one --uprobe");
		if (a->command && a->pid)
			argp_error(state, "--pid and a COMMAND exclude each other");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static char *join_argv(char **argv)
{
	size_t len = 1;
	char **p, *s;

	for (p = argv; *p; p++)
		len += strlen(*p) + 1;
	s = calloc(1, len);
	for (p = argv; s && *p; p++) {
		if (p != argv)
			strcat(s, " ");
		strcat(s, *p);
	}
	return s;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Resolves every --uprobe into a profile site; all problems are reported, not just the first. */
static int resolve_sites(struct record_args *a, struct profile *p, struct elf_func *funcs)
{
	int i, bad = 0;

	for (i = 0; i < a->nr_specs; i++) {
		struct target_spec *t = &a->specs[i];
		struct profile_site *s;

		if (elfsyms_resolve(t->path, t->symbol, t->offset, &funcs[i])) {
			bad++;
			continue;
		}
		s = profile_add_site(p);
		if (!s)
			return -ENOMEM;
		s->target = strdup(funcs[i].path);
		s->symbol = strdup(t->symbol);
		s->offset = t->offset;
		s->mechanism = strdup("uprobe");
		s->len_arg = strdup(reg_name(t->len_reg));
	}
	return bad ? -ENOENT : 0;
}

static int attach_sites(struct hist_session *hs, struct record_args *a, struct elf_func *funcs)
{
	int i, attached = 0;

	for (i = 0; i < a->nr_specs; i++) {
		struct target_spec *t = &a->specs[i];

		if (hist_session_config_site(hs, (uint32_t)i, t->len_reg, t->dst_reg, t->src_reg))
			continue;
		/* A site that fails to attach does not stop the others. */
		if (!hist_session_attach_uprobe(hs, (uint32_t)i, funcs[i].path, funcs[i].file_offset))
			attached++;
	}
	return attached;
}

static void wait_for_end(struct record_args *a, struct child *c)
{
	double end = a->duration ? now_s() + a->duration : 0;
	struct timespec tick = { 0, 20 * 1000 * 1000 };

	while (!stop_requested() && !(end && now_s() >= end)) {
		if (a->command && child_poll(c))
			return;
		nanosleep(&tick, NULL);
	}
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
	struct elf_func funcs[CP_MAX_SITES] = { 0 };
	struct child child = { .pid = -1, .gate_fd = -1, .exec_fd = -1 };
	struct hist_session *hs = NULL;
	struct profile *p = profile_new();
	int err = EXIT_RUNTIME, i;
	double t0;

	if (!p || resolve_sites(a, p, funcs) || feature_check_bpf() || feature_check_uprobes())
		goto out;
	stop_install();
	if (a->command) {
		if (child_spawn(a->command, &child))
			goto out;
		filter.tgid = (uint32_t)child.pid;
		p->meta.command = join_argv(a->command);
	}
	hs = hist_session_open(&filter, (uint32_t)a->nr_specs);
	if (!hs || !attach_sites(hs, a, funcs)) {
		p_err("no site could be attached; nothing to record");
		goto out;
	}
	sysinfo_fill_meta(&p->meta);
	t0 = now_s();
	if (a->command && child_release(&child, a->command[0]))
		goto out;
	if (!a->command && !a->duration)
		p_info("recording %d site(s); Ctrl-C to end", a->nr_specs);
	wait_for_end(a, &child);
	p->meta.duration_s = now_s() - t0;
	for (i = 0; i < a->nr_specs; i++)
		if (hist_session_collect(hs, (uint32_t)i, &p->sites[i]))
			goto out;
	hist_session_destroy(hs);
	hs = NULL;
	print_summary(p);
	fflush(stdout);
	if (profile_write(p, a->output))
		goto out;
	if (strcmp(a->output, "-"))
		p_info("profile written to %s", a->output);
	err = EXIT_OK;
out:
	hist_session_destroy(hs);
	if (a->command && child.pid > 0) {
		if (child.gate_fd >= 0)
			child_abort(&child);
		child_stop(&child, SIGTERM);
		if (WIFEXITED(child.status) && WEXITSTATUS(child.status) && !err)
			p_warn("'%s' exited with status %d", a->command[0], WEXITSTATUS(child.status));
	}
	for (i = 0; i < a->nr_specs; i++) {
		elf_func_free(&funcs[i]);
		target_spec_free(&a->specs[i]);
	}
	profile_free(p);
	return err;
}

int cmd_record(int argc, char **argv)
{
	static struct record_args args;
	const struct argp argp = { options, parse_opt, "[-- COMMAND [ARGS...]]", doc };

	memset(&args, 0, sizeof(args));
	args.output = "copyprof.json";
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	log_setup_libbpf();
	return record(&args);
}
