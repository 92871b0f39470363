/* SPDX-License-Identifier: GPL-2.0 */
/* paired_inputs.h: calibrate --mix: every family of every input measured into a cost model */
#ifndef CP_PAIRED_INPUTS_H
#define CP_PAIRED_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include "estimate/estimate_run.h"
#include "paired.h"
#include "paired_matrix.h"

/* A condition's least share of the budget, seconds: a measurement needs its quiet rounds. */
#define PAIRED_MIN_CONDITION_S 1.0

/*
 * True if @m was measured on this CPU (the only place a paired measurement can be stored: it
 * is this CPU's answer); else false with @why (printed by the caller).
 */
bool paired_model_is_here(const struct costmodel *m, char *why, size_t len);

/*
 * For each input of @run (read, with its cost model @run->models[0] measured on this CPU),
 * each family it has calls of (or @run->opts.o.family): the paired measurement of its mix in
 * each condition of @c[0..n) (paired_matrix.h: its cache state and working set; @po's budget
 * split evenly between them, at least PAIRED_MIN_CONDITION_S each), each stored in the model
 * under the mix's digest (of @run's cache option) and its condition, so that estimate on the
 * same input answers with them; then its hottest sites' own mixes in @c[0] alone
 * (paired_measure_sites(), @po's site_budget_s). @what names the inputs, for the
 * entry's "input". All of it @sittings times, @gap_s seconds apart: each a sitting of the
 * measurement, pooled by estimate (docs/estimate.md#sittings). Returns 0, -EINTR, -EDOM (a
 * refused measurement), or -errno after printing.
 */
int paired_measure_inputs(struct est_run *run, const struct paired_opts *po,
			  const struct paired_condition *c, size_t n, const char *what,
			  unsigned int sittings, double gap_s);

#endif
