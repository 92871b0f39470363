/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_verdict.h: the one-line verdict of an estimate, which never claims beyond its interval */
#ifndef CP_ESTIMATE_VERDICT_H
#define CP_ESTIMATE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include "estimate_result.h"

/* Fewer samples than this in a time-weighted family: too few for a verdict. */
#define EST_MIN_SAMPLES 100

enum est_verdict_kind {
	EST_VERDICT_SAVES,	     /* the best policy's 95% interval lies below today */
	EST_VERDICT_NO_DIFFERENCE,   /* something is cheaper, but within the measurement noise */
	EST_VERDICT_KEEP_TODAY,	     /* every other policy costs more (or runs the same code) */
	EST_VERDICT_TOO_FEW_SAMPLES, /* a sampled family with fewer than EST_MIN_SAMPLES */
	EST_VERDICT_NOT_MEASURED,    /* no paired measurement of this mix: modelled, no verdict */
	EST_VERDICT_DEPENDS, /* measured in several conditions that read differently (matrix) */
};

/*
 * The verdict (docs/estimate.md#the-verdict), in the way benchstat and criterion report "no
 * change": @fr->best is the cheapest policy the kernel could run (today, always, each T; never
 * the oracle) among the rows the paired measurement of this mix measured; it is named as a
 * saving only when its whole 95% interval lies below today. A mix measured in several
 * conditions (cache state, working set: estimate_matrix.h) has a verdict only where every
 * condition reads the same (a saving by the same policy); else EST_VERDICT_DEPENDS. Without that measurement
 * (@fr->meas NULL, --model-only) there is none: EST_VERDICT_NOT_MEASURED. The per-length
 * model had the wrong sign on AMD Zen 5 (T=4096 modelled -46%, measured +16%, and the program
 * took 8.7% more CPU with it): a model's figure decides nothing.
 */
enum est_verdict_kind est_verdict(const struct est_family_result *fr);
/*
 * True if every condition @fr's mix was measured in (@fr->cells, estimate_matrix.h) reads the
 * same verdict, a saving by the same policy: only then is there one.
 */
bool est_verdict_holds_across(const struct est_family_result *fr);
/* The matrix's cells that measured something: a cell whose every policy lacks a figure did not. */
size_t est_matrix_measured_cells(const struct est_family_result *fr);
/*
 * The policy the conditions are compared on: the first saving cell's cheapest, else the rows'
 * cheapest other than today's. EST_VERDICT_DEPENDS's text gives its figure and interval in every
 * condition: "it depends on the working set and cache state: warm, 8 KiB a side: T=4096 saves
 * 19.47% (95% CI 18.86 .. 19.60); warm, 256 KiB a side: T=4096 costs 2.20% (95% CI ...)".
 */
struct policy_key est_verdict_contested(const struct est_family_result *fr);
/*
 * What the figures alone read, whatever their source (est_verdict() without the measurement
 * rule): to compare two modelled states, never to print as a verdict.
 */
enum est_verdict_kind est_figures_read(const struct est_family_result *fr);
/* "saves", "no_difference", "keep_today", "too_few_samples", "not_measured", "depends" */
const char *est_verdict_name(enum est_verdict_kind k);
/*
 * The sentence: "T=512 saves 9.35% (95% CI 8.1 .. 10.6)", "no threshold differs from today's
 * code beyond the measurement noise", "every threshold costs more: keep today's code", "too
 * few samples (42) for a verdict: record longer", or, not measured, "none: the figures are
 * modelled; measure this mix on CPU with: copyprof calibrate -i MODEL --mix P -o MODEL" (for
 * another CPU's published curves: "none: modelled on the published curves of CPU; a verdict
 * needs a paired measurement of this mix on that CPU").
 */
void est_verdict_text(const struct est_family_result *fr, char *buf, size_t len);
/* Room for any verdict sentence: the command that measures a mix is the longest. */
#define EST_VERDICT_TEXT_LEN 768
/*
 * The words of "no difference", against @today ("today's code"): "no threshold differs from …
 * beyond the measurement noise" when none does, else "no threshold saves against … beyond the
 * measurement noise (T=0 within it; T=32, T=64, T=128 and 8 more cost more)": the rows on
 * each side of the noise, three named and the rest counted. A run on a contended core put service A's T=0 at
 * +0.87% within its noise while the other 11 cost 70-132% more, and said "no threshold
 * differs".
 */
void est_no_difference_words(const struct est_family_result *fr, const char *today, char *buf,
			     size_t len);

/* What to do with glibc's tunable (est_glibc_advice). */
enum est_glibc_action {
	EST_GLIBC_NOT_GLIBC,  /* not glibc's policies: no advice */
	EST_GLIBC_UNMEASURED, /* no measurement of the mix: no advice, nothing to ship */
	EST_GLIBC_KEEP,	      /* no saving: keep today's setting, nothing to ship */
	EST_GLIBC_DROP,	      /* the saving is glibc's default: drop the tunable */
	EST_GLIBC_SET,	      /* the saving needs a GLIBC_TUNABLES line: @line is it */
	EST_GLIBC_DEPENDS,    /* the verdict depends on the conditions: nothing to ship */
};

/*
 * glibc's policies only (EST_GLIBC_NOT_GLIBC otherwise): what to do, as one line in @line. The
 * best threshold when the verdict is a saving ("GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=
 * 4096", or "drop ... from GLIBC_TUNABLES" when it is glibc's default), else "keep today's
 * setting"; without a measurement of the mix EST_GLIBC_UNMEASURED and no line (empty @line):
 * a line to ship comes only from a measurement.
 */
enum est_glibc_action est_glibc_advice(const struct est_family_result *fr, char *line, size_t len);
/* True if @v lies within @w's 95% interval (a zero-width one: equal to its delta). */
bool est_row_within(const struct est_row *w, double v);

#endif
