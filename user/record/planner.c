// SPDX-License-Identifier: GPL-2.0
/* planner.c: kprobe where ftrace can trace, else a hardware breakpoint (4), else sampling */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sites/callsites.h"
#include "kernel/feature.h"
#include "lib/log.h"
#include "hwbp_mux.h"
#include "planner.h"
#include "sites/preset.h"
#include "lib/regs.h"

int plan_init_facts(struct plan *p, struct plan_facts *f)
{
	*p = (struct plan){ .ks = f->ks, .ki = f->ki, .ki_why = f->ki_why };
	p->has_kprobes = f->has_kprobes;
	p->kprobes_locked = f->has_kprobes && f->lockdown == LOCKDOWN_CONFIDENTIALITY;
	p->kprobe_set = f->kprobe_set;
	*f = (struct plan_facts){ 0 };
	if (p->ks->restricted) {
		p_err("/proc/kallsyms shows zero addresses: run as root (kernel.kptr_restrict)");
		plan_free(p);
		return -EPERM;
	}
	return 0;
}

int plan_init(struct plan *p, const char *vmlinux)
{
	struct kimage_opts o = { .vmlinux = vmlinux };
	struct plan_facts f = { .ks = ksyms_load(NULL) };

	*p = (struct plan){ 0 };
	if (!f.ks)
		return -ENOENT;
	/* Without kernel text, entries can still be planned; call sites cannot. */
	if (!f.ks->restricted)
		f.ki = kimage_open(&o, f.ks, &f.ki_why);
	f.has_kprobes = feature_has_kprobes();
	f.lockdown = f.has_kprobes ? feature_lockdown() : LOCKDOWN_UNKNOWN;
	return plan_init_facts(p, &f);
}

static void add_problem(struct plan *p, const char *fmt, ...)
{
	char **v = realloc(p->problems, (p->nr_problems + 1) * sizeof(*v));
	va_list ap;

	if (!v)
		return;
	p->problems = v;
	va_start(ap, fmt);
	if (vasprintf(&v[p->nr_problems], fmt, ap) >= 0)
		p->nr_problems++;
	va_end(ap);
}

static struct plan_site *add_site(struct plan *p)
{
	struct plan_site *v = realloc(p->v, (p->nr + 1) * sizeof(*v));

	if (!v)
		return NULL;
	p->v = v;
	memset(&v[p->nr], 0, sizeof(*v));
	return &v[p->nr++];
}

static int reg_or(const char *name, int fallback)
{
	int r = name ? reg_parse(name) : -1;

	return r > 0 ? r : fallback;
}

/*
 * The mechanism for an instruction in @info's function: a kprobe needs ftrace to trace the
 * function (kprobe events refuse notrace code) and the address off the blacklist; a hardware
 * breakpoint needs a free debug register and the address off the blacklist (x86 refuses
 * kernel breakpoints where it refuses kprobes, and all of them without kprobes).
 */
static void choose(struct plan *p, struct plan_site *s, const struct entry_info *info)
{
	const char *no_kprobe = !p->has_kprobes ? "this kernel has no kprobes" :
				p->kprobes_locked ? "lockdown=confidentiality refuses kprobes" :
				info->reason ?: "its function is not traceable";
	const char *no_hwbp = NULL;

	if (p->has_kprobes && !p->kprobes_locked && info->probeable == TS_YES) {
		s->choice = PLAN_KPROBE;
		s->site.mech = MECH_KPROBE;
		asprintf(&s->why, "kprobe: %s is traceable", info->symbol);
		return;
	}
	if (!p->has_kprobes)
		no_hwbp = "x86 allows no kernel breakpoints without kprobes";
	else if (info->noinstr == TS_YES || info->blacklisted == TS_YES)
		no_hwbp = "the address is noinstr/blacklisted";
	else if (!s->site.kaddr)
		no_hwbp = "the address is not known (module not loaded)";
	if (!no_hwbp) {
		s->choice = PLAN_HWBP;
		s->site.mech = MECH_HWBP;
		p->hwbp_used++;
		/* Beyond the debug registers, breakpoints take turns (record multiplexes them). */
		asprintf(&s->why, "hwbp%s: kprobe rejected (%s)",
			 p->hwbp_used > PLAN_MAX_HWBP ? " (multiplexed)" : "", no_kprobe);
		return;
	}
	s->choice = PLAN_UNCOVERED;
	asprintf(&s->why, "sampled: kprobe rejected (%s); hwbp rejected (%s)", no_kprobe, no_hwbp);
}

static int fill_spec(struct target_spec *t, const char *module, const char *func, uint64_t offset,
		     int len_reg, int dst_reg, int src_reg)
{
	*t = (struct target_spec){
		.offset = offset, .len_reg = len_reg, .dst_reg = dst_reg, .src_reg = src_reg
	};
	t->path = module ? strdup(module) : NULL;
	t->symbol = strdup(func);
	return t->symbol && (t->path || !module) ? 0 : -ENOMEM;
}

/* @user_len: the register the user named with len=, or -1 to take the call's convention. */
static int plan_callsite(struct plan *p, const struct callsite_list *l, const struct callsite *c,
			 const struct entry_info *info, int user_len)
{
	struct plan_site *s = add_site(p);
	bool has_src = c->family != CF_MOVS && copy_family_has_src(c->family);
	int len = reg_or(c->len_reg, CP_REG_RDX);

	if (!s)
		return -ENOMEM;
	/* At a call instruction the arguments sit in the SysV registers, not yet on a frame. */
	if (user_len > 0)
		len = user_len;
	if (fill_spec(&s->site.spec, l->module, l->function, c->offset, len, CP_REG_RDI,
		      has_src ? CP_REG_RSI : CP_REG_NONE))
		return -ENOMEM;
	s->site.kaddr = c->addr;
	s->copy_target = c->target ? strdup(c->target) : NULL;
	/* The call's target says what is copied; an inline rep movs/stos says so itself. */
	s->site.family = c->family;
	choose(p, s, info);
	return 0;
}

/*
 * A module name in a preset may be built into this kernel (btrfs is, on some): then the function
 * is in the core kernel. Returns true, after noting the problem, if it is nowhere.
 */
static bool builtin_module(struct plan *p, struct target_spec *t)
{
	if (!t->path || ksyms_has_module(p->ks, t->path))
		return false;
	if (ksyms_find(p->ks, t->symbol, NULL)) {
		free(t->path);
		t->path = NULL;
		return false;
	}
	if (ksyms_module_builtin(p->ks, t->path))
		add_problem(p,
			    "%s: not in kallsyms; %s is built in, so %s is inlined into its "
			    "callers (probe those) or not in this kernel version",
			    t->symbol, t->path, t->symbol);
	else
		add_problem(p, "%s: module %s is not loaded (modprobe %s) and not built in",
			    t->symbol, t->path, t->path);
	return true;
}

int plan_add_function(struct plan *p, const char *spec)
{
	struct callsite_opts o = { 0 };
	struct callsite_list *lists = NULL;
	struct entry_info info = { 0 };
	struct target_spec t;
	char err[256], *why = NULL;
	int n, i, err_ret = 0;
	size_t k, added = 0;

	if (target_spec_parse_kernel(spec, &t, err, sizeof(err))) {
		add_problem(p, "%s: %s", spec, err);
		return -EINVAL;
	}
	if (builtin_module(p, &t))
		goto out;
	if (!p->ki) {
		add_problem(p, "%s: no kernel text to find its call sites in (see above)",
			    t.symbol);
		goto out;
	}
	n = callsites_find(p->ks, p->ki, t.symbol, t.path, &o, &lists, &why);
	if (n < 0) {
		add_problem(p, "%s: %s", t.symbol, why ?: strerror(-n));
		goto out;
	}
	callsites_entry_info(p->ks, t.symbol, &p->kprobe_set, &info);
	for (i = 0; i < n && !err_ret; i++)
		for (k = 0; k < lists[i].nr && !err_ret; k++) {
			if (t.offset && lists[i].v[k].offset != t.offset)
				continue;
			err_ret = plan_callsite(p, &lists[i], &lists[i].v[k], &info,
						strstr(spec, "len=") ? t.len_reg : -1);
			added++;
		}
	if (!added && !err_ret)
		add_problem(p,
			    t.offset ? "%s+0x%llx: no copy-family call there"
				     : "%s: no copy-family call sites",
			    t.symbol, (unsigned long long)t.offset);
	entry_info_free(&info);
	callsite_lists_free(lists, n);
out:
	free(why);
	target_spec_free(&t);
	return err_ret;
}

/* With list_callers: finds @symbol's callers for plan_print; NULL if not listed. */
static const struct callers *add_callers(struct plan *p, const char *symbol, int len_reg)
{
	struct plan_callers *v;
	struct callers c;
	char *why = NULL;

	if (!p->list_callers)
		return NULL;
	if (callers_find(p->ks, p->ki, symbol, &p->kprobe_set, &c, &why)) {
		add_problem(p, "%s: cannot list its callers: %s", symbol, why ?: "?");
		free(why);
		callers_free(&c);
		return NULL;
	}
	v = realloc(p->callers, (p->nr_callers + 1) * sizeof(*v));
	if (!v) {
		callers_free(&c);
		return NULL;
	}
	p->callers = v;
	v[p->nr_callers] = (struct plan_callers){ c, len_reg };
	return &v[p->nr_callers++].c;
}

int plan_add_entry(struct plan *p, const char *spec)
{
	struct entry_info info = { 0 };
	const struct callers *callers;
	const struct copy_target *ct;
	struct plan_site *s;
	struct target_spec t;
	const struct ksym *sym;
	char err[256];
	int len;

	if (target_spec_parse_kernel(spec, &t, err, sizeof(err))) {
		add_problem(p, "%s: %s", spec, err);
		return -EINVAL;
	}
	if (builtin_module(p, &t)) {
		target_spec_free(&t);
		return 0;
	}
	sym = ksyms_find(p->ks, t.symbol, t.path ?: "*");
	if (!sym) {
		add_problem(p, "%s: no such kernel symbol%s", t.symbol,
			    t.path ? " in that module (is it loaded?)" : "");
		target_spec_free(&t);
		return 0;
	}
	/* Copy-family entries keep the length where their convention has it (rcx for *_alternative). */
	ct = copy_target_lookup(t.symbol);
	len = strstr(spec, "len=") || !ct ? t.len_reg : reg_or(ct->len_reg, t.len_reg);
	s = add_site(p);
	if (!s || fill_spec(&s->site.spec, t.path, t.symbol, 0, len, t.dst_reg, t.src_reg)) {
		target_spec_free(&t);
		return -ENOMEM;
	}
	s->site.kaddr = sym->addr;
	/* A copy routine's entry is of its family; any other by the length rule (target_spec.h). */
	s->site.family = ct ? ct->family : copy_family_of_probe(t.symbol, len);
	callsites_entry_info(p->ks, t.symbol, &p->kprobe_set, &info);
	choose(p, s, &info);
	callers = s->choice == PLAN_UNCOVERED ? add_callers(p, t.symbol, len) : NULL;
	if (callers && callers->nr_kprobe)
		add_problem(p,
			    "%s: no probe at its entry; its callers are listed below: probe "
			    "their call sites with --%s CALLER+OFF",
			    t.symbol, callers->copy_family ? "site" : "kprobe");
	else if (callers)
		add_problem(p,
			    "%s: no probe at its entry, nor in any caller (listed below): "
			    "use record --sample",
			    t.symbol);
	else if (s->choice == PLAN_UNCOVERED)
		add_problem(p,
			    "%s: no probe at its entry; probe the call sites in its callers "
			    "with --site CALLER, or find the callers with record --sample",
			    t.symbol);
	entry_info_free(&info);
	target_spec_free(&t);
	return 0;
}

int plan_add_preset(struct plan *p, const char *name)
{
	struct preset *pr;
	size_t i;
	int err = 0;

	if (preset_load(name, &pr))
		return -ENOENT;
	/* A line that does not parse is a broken preset, not a function this kernel lacks. */
	for (i = 0; i < pr->nr_items; i++) {
		struct target_spec t;
		char why[160];

		if (target_spec_parse_kernel(pr->items[i].spec, &t, why, sizeof(why))) {
			p_err("%s:%d: %s '%s': %s", pr->path, pr->items[i].line,
			      pr->items[i].kind == PRESET_SITE ? "site" : "entry",
			      pr->items[i].spec, why);
			preset_free(pr);
			return -EBADMSG;
		}
		target_spec_free(&t);
	}
	for (i = 0; i < pr->nr_items && !err; i++)
		err = pr->items[i].kind == PRESET_SITE ? plan_add_function(p, pr->items[i].spec)
						       : plan_add_entry(p, pr->items[i].spec);
	preset_free(pr);
	return err == -EINVAL ? 0 : err;
}

/*
 * What a hit adds to the traced code, compile-time constants from documented benches in the
 * Debian 6.12 guest under qemu TCG: a kprobe by bench/kprobe_attach.sh
 * (docs/benchmarks.md#kernel-call-sites-copyprof-against-bpftrace-benchkprobe_attachsh), a
 * breakpoint by bench/hwbp_attach.sh on the same site as a kprobe, and the multiplexer's move
 * of one CPU's breakpoint event (docs/benchmarks.md#breakpoint-hits-and-rotation-steps-
 * benchhwbp_attachsh). TCG emulates the debug exception and every kernel entry, so these are
 * TCG figures, not real hardware's: the printed line says so.
 */
#define COST_KPROBE_US 2.9
#define COST_HWBP_US 10.4
#define COST_HWBP_MOVE_US 269

void plan_print_summary(const struct plan *p, FILE *f, unsigned int sample_hz, bool sample_all)
{
	size_t i, n[3] = { 0 };
	const char *sampling = " (not needed)";

	for (i = 0; i < p->nr; i++)
		n[p->v[i].choice]++;
	fprintf(f, "  %zu site%s: %zu kprobe, %zu breakpoint", p->nr, p->nr == 1 ? "" : "s",
		n[PLAN_KPROBE], n[PLAN_HWBP]);
	if (n[PLAN_HWBP] > PLAN_MAX_HWBP)
		fprintf(f, " (multiplexed %d of %zu at a time)", PLAN_MAX_HWBP, n[PLAN_HWBP]);
	fprintf(f, ", %zu sampled\n", n[PLAN_UNCOVERED]);
	if (n[PLAN_HWBP] > PLAN_MAX_HWBP)
		fprintf(f,
			"  rotation: %d us per move of a CPU's breakpoint (measured under qemu "
			"TCG, "
			"docs/benchmarks.md), up to %d moves per CPU every %d ms\n",
			COST_HWBP_MOVE_US, PLAN_MAX_HWBP - 1, HWBP_MUX_PERIOD_MS);
	if (!n[PLAN_KPROBE] && !n[PLAN_HWBP])
		sampling = sample_all ? ", nothing to probe: every copy sample kept (--all)"
				      : ", nothing to probe: only samples whose stack goes through "
					"the plan's functions kept (--all keeps every one)";
	else if (n[PLAN_UNCOVERED])
		sampling = ", only the sampled sites' functions kept";
	fprintf(f,
		"  cost: kprobe %.1f us per hit, breakpoint %.1f us per hit (both measured under "
		"qemu TCG, not on hardware: docs/benchmarks.md); sampling %u samples/s per CPU%s\n",
		COST_KPROBE_US, COST_HWBP_US, sample_hz, sampling);
}

void plan_print(const struct plan *p, FILE *f)
{
	static const char *const choice[] = { "kprobe", "hwbp", "sample" };
	size_t i;

	if (p->ki)
		fprintf(f, "  kernel text: %s %s\n", kimage_source(p->ki),
			kimage_path(p->ki) ?: "");
	else
		fprintf(f, "  kernel text: none (%s)\n", p->ki_why ?: "?");

	for (i = 0; i < p->nr; i++) {
		const struct plan_site *s = &p->v[i];

		fprintf(f, "  %-6s %s%s%s+0x%llx", choice[s->choice], s->site.spec.path ?: "",
			s->site.spec.path ? ":" : "", s->site.spec.symbol,
			(unsigned long long)s->site.spec.offset);
		if (s->copy_target)
			fprintf(f, " -> %s", s->copy_target);
		fprintf(f, " (len=%s)  %s\n", reg_name(s->site.spec.len_reg), s->why);
	}
	for (i = 0; i < p->nr_problems; i++)
		fprintf(f, "  skipped: %s\n", p->problems[i]);
	for (i = 0; i < p->nr_callers; i++)
		callers_print(&p->callers[i].c, f, "  ", CALLERS_SHOWN,
			      reg_name(p->callers[i].len_reg));
}

size_t plan_nr_covered(const struct plan *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nr; i++)
		n += p->v[i].choice != PLAN_UNCOVERED;
	return n;
}

void plan_free(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		probe_site_free(&p->v[i].site);
		free(p->v[i].copy_target);
		free(p->v[i].why);
	}
	for (i = 0; i < p->nr_problems; i++)
		free(p->problems[i]);
	for (i = 0; i < p->nr_callers; i++)
		callers_free(&p->callers[i].c);
	free(p->callers);
	free(p->v);
	free(p->problems);
	free(p->ki_why);
	kimage_close(p->ki);
	ksyms_free(p->ks);
	*p = (struct plan){ 0 };
}
