// SPDX-License-Identifier: GPL-2.0
/* cmd_probe.c: `copyprof probe`: live copy dispatch, copy-family call sites, entry probe-ability */
#include <argp.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "cmd_probe_print.h"
#include "cmd_options.h"
#include "commands.h"
#include "kernel/kimage.h"
#include "kernel/ksyms.h"
#include "lib/host.h"
#include "lib/log.h"
#include "record/planner.h"
#include "record/target_spec.h"
#include "sites/callers.h"
#include "sites/callsites.h"
#include "sites/dispatch.h"
#include "sites/preset.h"

#define MAX_TARGETS 64

struct probe_args {
	struct cmd_options common;	/* -i, -o, --json, -v */
	const char *sites[MAX_TARGETS]; /* [MODULE:]FUNC */
	bool site_from_preset[MAX_TARGETS];
	size_t nr_sites;
	const char *entries[MAX_TARGETS];
	size_t nr_entries;
	struct preset *presets[MAX_TARGETS]; /* -p: their sites and entries join the lists */
	size_t nr_presets;
	const char *kallsyms;
	const char *vmlinux;
	const char *modules;
	const char *release;
	bool no_kcore;
	size_t callers_shown; /* --callers N */
};

enum {
	OPT_SITE = 0x100,
	OPT_ENTRY,
	OPT_VMLINUX,
	OPT_KALLSYMS,
	OPT_MODULES,
	OPT_RELEASE,
	OPT_NO_KCORE,
	OPT_CALLERS
};

static const struct cmd_options_spec common_options = {
	.json_help = "Print JSON",
	.verbose_help = "More messages, and the instructions before each site",
};

static const struct argp_option options[] = {
	{ "preset", 'p', "PRESET", 0,
	  "The sites and entries of preset PRESET (btrfs, iov_iter, "
	  "clear_user, or a .preset file), with the mechanism record would use for each" },
	{ "site", OPT_SITE, "[MODULE:]FUNC", 0,
	  "List FUNC's calls into the copy family (repeatable)" },
	{ "entry", OPT_ENTRY, "SYMBOL", 0,
	  "Say whether a kprobe at SYMBOL's entry can work; if not, why, and list its callers "
	  "(repeatable)" },
	{ "callers", OPT_CALLERS, "N", 0,
	  "List at most N callers of an --entry that cannot be probed (default 20; --json lists "
	  "all)" },
	{ "vmlinux", OPT_VMLINUX, "PATH", 0,
	  "Kernel text from this vmlinux or vmlinuz when "
	  "/proc/kcore is missing" },
	{ "kallsyms", OPT_KALLSYMS, "FILE", 0,
	  "Symbols from FILE (another machine's /proc/kallsyms; "
	  "implies --no-kcore)" },
	{ "modules", OPT_MODULES, "DIR", 0,
	  "Module folder for .ko files (default "
	  "/lib/modules/$(uname -r))" },
	{ "release", OPT_RELEASE, "VER", 0,
	  "Kernel release for the table and default paths "
	  "(default uname -r)" },
	{ "no-kcore", OPT_NO_KCORE, NULL, 0,
	  "Do not read /proc/kcore (dispatch from the table; "
	  "text from files)" },
	{},
};

static const char doc[] =
	"Show which code this kernel and CPU run for memcpy, memmove, memset, "
	"clear_user and copy_{to,from}_user at each length (decoded from "
	"/proc/kcore where it exists, else from a documented table), every call "
	"into the copy family inside the --site functions, and whether a kprobe "
	"at each --entry symbol can work; where none can, the entry's direct "
	"callers (call sites confirmed with Capstone) and which take a kprobe.\n"
	"\n"
	"EXAMPLES:\n"
	"  copyprof probe                       # the dispatch only\n"
	"  copyprof probe -p btrfs              # call sites, mechanism and why\n"
	"  copyprof probe --site ZSTD_decompressStream \\\n"
	"                 --entry memcpy_orig --entry read_zero\n"
	"  copyprof probe --entry memcpy --callers 50   # who calls memcpy\n"
	"  copyprof probe --site btrfs:btrfs_decompress_buf2page --json\n"
	"  copyprof probe --kallsyms guest.kallsyms --release 6.12.1 \\\n"
	"                 --vmlinux vmlinuz-6.12.1 --site ZSTD_decompressStream\n"
	"\n"
	"Exit status: 0 ok, 1 a site or entry could not be resolved or read (the "
	"others are still printed; a preset's site this kernel lacks is skipped, but "
	"if all are skipped the status is 1), 2 usage error.";

/* [MOD:]FUNC[+OFF][,len=REG]: the module ("" for vmlinux) and function (checked at parsing). */
static void split_site(const char *spec, char *module, size_t mlen, char *func, size_t flen)
{
	struct target_spec t;
	char err[128];

	*module = *func = 0;
	if (target_spec_parse_kernel(spec, &t, err, sizeof(err))) {
		snprintf(func, flen, "%s", spec);
		return;
	}
	snprintf(module, mlen, "%s", t.path ?: "");
	snprintf(func, flen, "%s", t.symbol);
	target_spec_free(&t);
}

/* A --site or --entry (or a preset's) that does not parse: the reason, else NULL. */
static const char *spec_error(const char *spec, char *err, size_t len)
{
	struct target_spec t;

	if (target_spec_parse_kernel(spec, &t, err, len))
		return err;
	target_spec_free(&t);
	return NULL;
}

static void add_preset_items(struct argp_state *state, struct probe_args *a,
			     const struct preset *pr)
{
	size_t i;

	char err[160];

	for (i = 0; i < pr->nr_items; i++) {
		size_t *n = pr->items[i].kind == PRESET_SITE ? &a->nr_sites : &a->nr_entries;

		if (spec_error(pr->items[i].spec, err, sizeof(err)))
			argp_failure(state, EXIT_RUNTIME, 0, "%s:%d: %s '%s': %s", pr->path,
				     pr->items[i].line,
				     pr->items[i].kind == PRESET_SITE ? "site" : "entry",
				     pr->items[i].spec, err);
		if (*n == MAX_TARGETS)
			argp_error(state, "preset %s: more than %d sites or entries", pr->name,
				   MAX_TARGETS);
		if (pr->items[i].kind == PRESET_SITE)
			a->site_from_preset[*n] = true;
		(pr->items[i].kind == PRESET_SITE ? a->sites : a->entries)[(*n)++] =
			pr->items[i].spec;
	}
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct probe_args *a = state->input;
	char err[160];

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->common;
		break;
	case 'p':
		if (a->nr_presets == MAX_TARGETS || preset_load(arg, &a->presets[a->nr_presets]))
			argp_failure(state, EXIT_RUNTIME, 0, "cannot use preset '%s'", arg);
		add_preset_items(state, a, a->presets[a->nr_presets++]);
		break;
	case OPT_SITE:
	case OPT_ENTRY:
		if ((key == OPT_SITE ? a->nr_sites : a->nr_entries) == MAX_TARGETS)
			argp_error(state, "at most %d --site and %d --entry", MAX_TARGETS,
				   MAX_TARGETS);
		if (!*arg)
			argp_error(state, "--%s wants a name", key == OPT_SITE ? "site" : "entry");
		if (spec_error(arg, err, sizeof(err)))
			argp_error(state, "--%s %s: %s", key == OPT_SITE ? "site" : "entry", arg,
				   err);
		if (key == OPT_SITE)
			a->sites[a->nr_sites++] = arg;
		else
			a->entries[a->nr_entries++] = arg;
		break;
	case OPT_VMLINUX:
		a->vmlinux = arg;
		break;
	case OPT_KALLSYMS:
		a->kallsyms = arg;
		a->no_kcore |= strcmp(arg, "/proc/kallsyms") != 0;
		break;
	case OPT_MODULES:
		a->modules = arg;
		break;
	case OPT_RELEASE:
		a->release = arg;
		break;
	case OPT_NO_KCORE:
		a->no_kcore = true;
		break;
	case OPT_CALLERS: {
		char *end;

		errno = 0;
		a->callers_shown = strtoul(arg, &end, 10);
		if (errno || end == arg || *end || *arg == '-')
			argp_error(state, "--callers wants a number, not '%s'", arg);
		break;
	}
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s' (functions are given with --site)",
			   arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* @why without a leading "FUNC: " that the skipped line already names. */
static const char *reason_of(const char *why, const char *func)
{
	size_t n = strlen(func);

	if (why && !strncmp(why, func, n) && !strncmp(why + n, ": ", 2))
		return why + n + 2;
	return why;
}

/* Reads every --site; *@found counts those read. Returns 1 if one that was asked for failed. */
static int run_sites(const struct probe_args *a, const struct ksyms *ks, struct kimage *ki,
		     json_object *jsites, size_t *found)
{
	struct callsite_opts o = { .modules_dir = a->modules, .include_inline = true };
	struct callsite_list *l;
	char module[64], func[256], *why;
	const char *mod;
	int n, j, failed = 0;
	size_t i;
	json_object *err;

	*found = 0;
	for (i = 0; i < a->nr_sites; i++) {
		split_site(a->sites[i], module, sizeof(module), func, sizeof(func));
		mod = *module ? module : NULL;
		/* A built-in module's functions are in the core kernel: no .ko to look for. */
		if (mod && ksyms_module_builtin(ks, mod))
			mod = NULL;
		n = callsites_find(ks, ki, func, mod, &o, &l, &why);
		if (n == -ENOENT && *module && !mod && !ksyms_find(ks, func, NULL)) {
			free(why);
			why = NULL;
			if (asprintf(&why,
				     "not in kallsyms; %s is built in, so %s is inlined into its "
				     "callers (probe those) or not in this kernel version",
				     module, func) < 0)
				why = NULL;
		}
		if (n < 0) {
			/* Presets name functions of several kernels: one this kernel lacks is skipped. */
			bool skip = n == -ENOENT && a->site_from_preset[i];
			const char *r = reason_of(why, func) ?: strerror(-n);

			if (skip)
				p_info("skipped: %s: %s", a->sites[i], r);
			else
				p_err("--site %s: %s", a->sites[i], r);
			if (jsites) {
				err = probe_callsites_error_to_json(func, skip, why);
				json_object_array_add(jsites, err);
			}
			free(why);
			failed |= !skip;
			continue;
		}
		(*found)++;
		for (j = 0; j < n; j++) {
			if (jsites)
				json_object_array_add(jsites, probe_callsites_to_json(&l[j]));
			else
				probe_callsites_print(&l[j]);
		}
		callsite_lists_free(l, (size_t)n);
	}
	return failed;
}

/* For an entry no kprobe can take: the callers, whose call sites can (text or JSON). */
static void run_callers(const struct probe_args *a, const struct ksyms *ks, struct kimage *ki,
			const struct entry_info *e, json_object *jentry)
{
	struct callers c;
	char *why = NULL;
	bool searched = e->found && e->probeable != TS_YES, failed = false;

	if (searched && callers_find(ks, ki, e->symbol, NULL, &c, &why)) {
		callers_free(&c);
		searched = false;
		failed = true;
	}
	if (jentry)
		probe_callers_add_json(jentry, searched ? &c : NULL, failed ? why ?: "?" : NULL);
	else
		probe_callers_print(searched ? &c : NULL, failed ? why ?: "?" : NULL,
				    a->callers_shown);
	free(why);
	if (searched)
		callers_free(&c);
}

static int run_entries(const struct probe_args *a, const struct ksyms *ks, struct kimage *ki,
		       json_object *jentries)
{
	struct entry_info e;
	json_object *o = NULL;
	int failed = 0;
	size_t i;

	char module[64], func[256];

	for (i = 0; i < a->nr_entries; i++) {
		split_site(a->entries[i], module, sizeof(module), func, sizeof(func));
		if (callsites_entry_info(ks, func, NULL, &e)) {
			p_err("--entry %s: not in %s", a->entries[i], ks->path);
			failed = 1;
		}
		if (jentries)
			json_object_array_add(jentries, o = probe_entry_to_json(&e));
		else
			probe_entry_print(&e);
		run_callers(a, ks, ki, &e, o);
		entry_info_free(&e);
	}
	return failed;
}

/*
 * What record would attach for the same sites and entries, and why (this machine only).
 * 1 if it could not be planned (printed: e.g. zero addresses for a user who is not root).
 */
static int run_plan(const struct probe_args *a, json_object *jplan)
{
	struct plan pl;
	size_t i;

	if (a->kallsyms || (!a->nr_sites && !a->nr_entries))
		return 0;
	if (plan_init(&pl, a->vmlinux))
		return 1;
	for (i = 0; i < a->nr_sites; i++)
		plan_add_function(&pl, a->sites[i]);
	for (i = 0; i < a->nr_entries; i++)
		plan_add_entry(&pl, a->entries[i]);
	if (jplan)
		probe_plan_add_json(jplan, &pl);
	else
		probe_plan_print(&pl);
	plan_free(&pl);
	return 0;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_args args = { .callers_shown = CALLERS_SHOWN };
	struct argp common;
	struct argp_child children[2];
	struct argp argp = { options, parse_opt, NULL, doc, children };
	struct kimage_opts ko;
	struct kimage *ki = NULL;
	struct ksyms *ks;
	struct host_meta meta = { 0 };
	struct dispatch d = { 0 };
	json_object *root = NULL, *jsites = NULL, *jentries = NULL;
	struct utsname u;
	char release[sizeof(u.release)], *why = NULL;
	int failed = 0;
	size_t found;

	cmd_options_child(&common_options, &common, children);
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	ks = ksyms_load(args.kallsyms);
	if (!ks)
		return EXIT_RUNTIME;
	if (ks->restricted)
		p_warn("%s shows only zero addresses (kernel.kptr_restrict): run as root; the "
		       "dispatch "
		       "comes from the table and no call site can be located",
		       ks->path);
	host_fill_meta(&meta);
	if (!args.release && !uname(&u)) {
		snprintf(release, sizeof(release), "%s", u.release);
		args.release = release;
	}
	ko = (struct kimage_opts){ args.vmlinux, args.release, args.no_kcore,
				   /* the dispatch alone wants kcore or nothing */
				   .live_only = !args.nr_sites && !args.nr_entries };
	ki = kimage_open(&ko, ks, &why);
	if (!ki)
		p_debug("no kernel text: %s", why ?: "?");
	dispatch_probe(ks, ki, args.release, &meta, &d);

	if (args.common.json) {
		root = probe_head_to_json(args.release, ks, ki, &d);
		jsites = json_object_new_array();
		jentries = json_object_new_array();
	} else {
		probe_head_print(args.release, ks, ki, &d);
	}
	failed = run_sites(&args, ks, ki, jsites, &found);
	if (args.nr_sites && !found && !failed) {
		/* Every site a preset named was skipped: nothing of it can be recorded here. */
		p_err("none of the %zu sites could be read on this kernel (each is skipped above)",
		      args.nr_sites);
		failed = 1;
	}
	if (failed) {
		/* Module sites do not need the core kernel's text: only now say where we looked. */
		if (!ki)
			p_info("kernel text: tried %s", why ?: "?");
	}
	free(why);
	failed |= run_entries(&args, ks, ki, jentries);
	if (root) {
		json_object *jplan = json_object_new_array();

		failed |= run_plan(&args, jplan);
		probe_json_print(root, jsites, jentries, jplan);
	} else {
		failed |= run_plan(&args, NULL);
	}
	while (args.nr_presets)
		preset_free(args.presets[--args.nr_presets]);
	dispatch_free(&d);
	kimage_close(ki);
	ksyms_free(ks);
	host_meta_free(&meta);
	return failed ? EXIT_RUNTIME : EXIT_OK;
}
