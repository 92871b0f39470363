/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_program.h: what a threshold does to the traced program's CPU time, not only its copies */
#ifndef CP_ESTIMATE_PROGRAM_H
#define CP_ESTIMATE_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include "estimate_input.h"
#include "estimate_result.h"

/*
 * The program-level figure (docs/estimate.md#the-program): the family's copy time today
 * (today's row, total_ns) over the program's own CPU time (meta.cpu_s less the probes' traps,
 * meta.probe_cpu_s), times row @row's change of copy time: "copy time is @share_pct% of the
 * program's CPU; T would change it by @pct% (@copy_pct% x @share_pct%)".
 */
struct est_program {
	bool known; /* false: @why says what is missing */
	char why[200];
	double cpu_s;	    /* the recorded processes' CPU time, as measured */
	double probe_cpu_s; /* the uprobe traps' part of it */
	double own_cpu_s;   /* cpu_s - probe_cpu_s: the program's own */
	double copy_s;	    /* the family's copy time today */
	double share_pct;   /* 100 * copy_s / own_cpu_s */
	int row;	    /* the row the change is of */
	bool measured;	    /* that row's change is a paired measurement's (else modelled) */
	double copy_pct;    /* the row's change of copy time, percent */
	double pct;	    /* share_pct * copy_pct / 100: the program's CPU time's change */
	bool ci_known;
	double lo, hi; /* the row's interval scaled the same way */
	bool untraced; /* own_cpu_s measured without probes (est_program_untraced()) */
	/*
	 * Where copy_s comes from: modelled (today's row over the recorded calls), or sampled
	 * (meta.copy_share while recorded, traps left out; or verify's runs without probes).
	 */
	enum est_share_from { EST_SHARE_MODELLED, EST_SHARE_TRACED, EST_SHARE_UNTRACED } from;
	uint64_t samples; /* sampled: the samples the share is of (copy + own) */
};

/*
 * Traps beyond this share of the recorded CPU time leave the program's own time a small
 * difference of two large numbers: said beside the figure. A uprobe hit cost 16-17 us on the
 * development VM (KVM), so 20,000 hits of a 2.4 ms program were 99% of its recorded 0.34 s,
 * and the per-hit cost, measured apart on copyprof's own code, is not exact to 1%.
 */
#define EST_PROGRAM_TRAP_SHARE 0.5

/*
 * The same figure over @own_cpu_s, the program's CPU time measured without probes (verify's
 * runs of the recorded command without the threshold) instead of the recording's.
 */
void est_program_untraced(const struct est_family_result *fr, double own_cpu_s,
			  struct est_program *pg);
/*
 * The share sampled in verify's runs without probes and without the threshold (@copy of
 * @copy + @own samples) instead of the recording's, after est_program_untraced().
 */
void est_program_untraced_share(const struct est_family_result *fr, uint64_t copy, uint64_t own,
				struct est_program *pg);
/*
 * The row the figure is of: the best policy, or, when that is today's code, the row the
 * estimate names beside it (the cheapest other, or --threshold's).
 */
int est_program_row(const struct est_family_result *fr);
/* Fills @out for row @row of @fr over input @in (known false, with why, when it cannot be). */
void est_program_figure(const struct est_input *in, const struct est_family_result *fr, int row,
			struct est_program *out);

/* Room for est_program_text(). */
#define EST_PROGRAM_TEXT_LEN 768
/* The figure as text: "copy time is 12.3% of the program's CPU (...); T=4096 would ..." */
void est_program_text(const struct est_program *pg, const struct est_family_result *fr, char *buf,
		      size_t len);

#endif
