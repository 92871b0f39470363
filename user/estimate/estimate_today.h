/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_today.h: today's code of a family, from facts only: --today, the probe, the kernel */
#ifndef CP_ESTIMATE_TODAY_H
#define CP_ESTIMATE_TODAY_H

#include <stdbool.h>
#include <stdint.h>
#include "estimate_family.h"
#include "estimate_input.h"
#include "lib/glibc_rules.h"
#include "sites/copy_paths.h"

/* Where today's code came from (JSON today.from: "given", "probed", "kernel", "ifunc_rule"). */
enum est_today_from {
	EST_TODAY_FROM_GIVEN,	   /* --today IMPL */
	EST_TODAY_FROM_PROBED,	   /* the probed function is that code (glibc's: recorded) */
	EST_TODAY_FROM_KERNEL,	   /* the kernel's dispatch for the input's kernel and flags */
	EST_TODAY_FROM_IFUNC_RULE, /* --today glibc: the version's IFUNC rule for the CPU */
};
const char *est_today_from_name(enum est_today_from f);

/* What est_today_of() adds to the replica: where it came from, glibc's own name of it. */
struct est_today_src {
	enum est_today_from from;
	const char *glibc_symbol; /* "__memmove_avx512_unaligned_erms" (probed or the rule's) */
	char rule[256]; /* the IFUNC rule's reason, version and assumptions; "" otherwise */
};

/*
 * Today's code of family @f of @in, from facts only (docs/estimate.md#families): @given (the
 * --today replica) if set; EST_TODAY_GLIBC: the replica of the implementation glibc's IFUNC
 * picks for @f, by the rule of the input's glibc version (2.36's when none is recorded, said)
 * on the input's CPU, or on @model_cpu (the cost model's) when the input records none
 * (docs/estimate.md#which-variant-glibc-runs); else, for a family whose sites are all uprobes
 * in a program, the probed function when it is code copyprof replicates (an asm-ref replica,
 * by its name); else the kernel's live dispatch for the input's kernel and CPU flags. A
 * user-space function of unknown code is never guessed from its name (a glibc "..._erms" runs
 * a vector loop below its threshold, not REP MOVSB): -ENOENT, printed, asking for --today; so
 * are kernel sites whose CPU flags are unknown (import-perf of another host's perf.data):
 * never assumed absent, and an IFUNC rule on a CPU whose vector features are not known (only
 * this machine's are: a machine block records no AVX flags) or whose pick is not replicated.
 * @src (may be NULL) says where today's came from. Returns 0 or -ENOENT.
 */
int est_today_of(const struct est_input *in, enum copy_family f, const char *given,
		 const struct machine *model_cpu, struct copy_path *today,
		 struct est_today_src *src);
/* Where today's glibc threshold came from (JSON: "tunables", "default_recorded", "version_rule"). */
enum est_glibc_from {
	EST_GLIBC_FROM_TUNABLES, /* the process's GLIBC_TUNABLES, as its loader read them */
	EST_GLIBC_FROM_DEFAULT,	 /* glibc's default, as the process's loader printed it */
	EST_GLIBC_FROM_RULE,	 /* not recorded: the glibc version's rule for the profile's CPU */
};

/* Today's threshold of glibc's policy set, and where it came from. */
struct est_glibc_today {
	uint64_t knob; /* in force */
	uint64_t dflt; /* glibc's default for this CPU (without GLIBC_TUNABLES) */
	enum est_glibc_from from;
	unsigned int major, minor;	       /* the recorded glibc's version; 0.0 not recorded */
	unsigned int rules_major, rules_minor; /* the version whose rules apply */
	bool rules_exact;		       /* ... which is the recorded one */
	struct glibc_value rule;	       /* that version's default for the profile's CPU */
	struct glibc_defaults defaults;	       /* all of that version's thresholds there */
	bool model_cpu; /* the input records no machine: the cost model's CPU was taken */
	char note[400]; /* what this glibc already does by default, or "" */
};

/*
 * glibc's threshold the profile's process ran with, for policy set @fi (glibc's), from facts
 * only (docs/estimate.md#glibc-versions): meta.glibc's in force (its GLIBC_TUNABLES, read with
 * the process's own loader), else the rule of the recorded glibc version (the newest known
 * release not newer than it, said, when not known; 2.36's, said, when no version is recorded)
 * for the profile's machine, or for @model_cpu (the cost model's: the CPU the estimate is
 * for) when the input records none (--hist). Returns 0, or -ENOENT (printed) when neither
 * gives a value.
 */
int est_today_glibc(const struct est_input *in, const struct est_family_impls *fi,
		    const struct machine *model_cpu, struct est_glibc_today *out);

#endif
