/* SPDX-License-Identifier: GPL-2.0 */
/* planner.h: choose one mechanism per kernel copy site, best first, and say why */
#ifndef CP_PLANNER_H
#define CP_PLANNER_H

#include <stdbool.h>
#include <stddef.h>
#include "sites/callers.h"
#include "sites/callsites.h"
#include "kernel/feature.h"
#include "kernel/kimage.h"
#include "kernel/ksyms.h"
#include "probe_site.h"

#define PLAN_MAX_HWBP 4 /* x86 debug registers per CPU: more are multiplexed */

/* PLAN_UNCOVERED: no probe can take it; record samples its function instead. */
enum plan_choice { PLAN_KPROBE, PLAN_HWBP, PLAN_UNCOVERED };

struct plan_site {
	enum plan_choice choice;
	struct probe_site site; /* mech, module, function, offset, len register, kaddr, family */
	char *copy_target;	/* __memcpy, rep_movs_alternative ...; NULL at an entry probe */
	char *why;		/* the mechanism chosen and why each better one was rejected */
};

/* The callers of an entry no probe can take, with the len= asked for it. */
struct plan_callers {
	struct callers c;
	int len_reg;
};

/*
 * The kernel facts a plan is made of: plan_init() reads the running kernel's, plan_init_facts()
 * takes given ones (recorded on another kernel: tests/unit/test_planner.c).
 */
struct plan_facts {
	struct ksyms *ks;  /* kallsyms (taken over) */
	struct kimage *ki; /* kernel text, or NULL: only entries can be planned (taken over) */
	char *ki_why;	   /* why there is no kernel text (taken over) */
	bool has_kprobes;  /* a kprobe PMU or tracefs kprobe_events */
	enum lockdown_level lockdown;  /* kernel_lockdown(7) */
	struct entry_paths kprobe_set; /* available_filter_functions and the kprobe blacklist:
					* NULL paths read the running kernel's */
};

struct plan {
	struct ksyms *ks;
	struct kimage *ki; /* may be NULL: then only entries can be planned */
	char *ki_why;	   /* why there is no kernel text, if so */
	bool has_kprobes;
	bool kprobes_locked;	       /* built in, but lockdown=confidentiality refuses them */
	struct entry_paths kprobe_set; /* where the kprobe rules are read (plan_facts) */
	struct plan_site *v;
	size_t nr;
	char **problems; /* functions not found, modules not loaded ...: reported, skipped */
	size_t nr_problems;
	int hwbp_used;
	bool list_callers; /* find and print the callers of such entries (set after init) */
	struct plan_callers *callers;
	size_t nr_callers;
};

/* Loads kallsyms and kernel text (--vmlinux may be NULL). Prints why and returns -errno. */
int plan_init(struct plan *p, const char *vmlinux);
/*
 * A plan over @f, which it takes over (freed by plan_free(), or here on failure): -EPERM
 * (printed) when kallsyms shows zero addresses.
 */
int plan_init_facts(struct plan *p, struct plan_facts *f);
/* Every copy-family call site inside [MODULE:]FUNC, or the one at FUNC+OFF. */
int plan_add_function(struct plan *p, const char *spec);
/* A probe at SYMBOL's entry ([MODULE:]SYMBOL[,len=REG]); explains when none is possible. */
int plan_add_entry(struct plan *p, const char *spec);
/* Adds every item of preset @name. */
int plan_add_preset(struct plan *p, const char *name);
/*
 * Prints the plan: one line per site with its mechanism and reason, then the problems, then
 * the callers of the entries that could not be covered (list_callers).
 */
void plan_print(const struct plan *p, FILE *f);
/*
 * One line of coverage ("13 sites: 0 kprobe, 13 breakpoint (multiplexed 4 of 13 at a time),
 * 0 sampled") and one of what each mechanism costs. With nothing to probe, the recording falls
 * back to sampling the plan's functions (every copy sample with @sample_all): said too.
 */
void plan_print_summary(const struct plan *p, FILE *f, unsigned int sample_hz, bool sample_all);
/* Number of sites that can be attached (kprobe or hwbp). */
size_t plan_nr_covered(const struct plan *p);
void plan_free(struct plan *p);

#endif
