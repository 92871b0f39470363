/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_matrix.h: the verdict across the conditions a mix was measured in (cache, working set) */
#ifndef CP_ESTIMATE_MATRIX_H
#define CP_ESTIMATE_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "estimate_options.h"
#include "estimate_result.h"

/*
 * calibrate --mix measures a mix in a stated matrix of conditions (docs/calibrate.md#conditions):
 * the working set per side and the cache state decide which code is cheaper, and flip the sign
 * (glibc's own knob on uniform 2300-3999 B lengths, AMD Zen 5: T=4096 against 2112 -24.3% with
 * 8 KiB a side, +18.5% at 256 KiB). A profile records no footprint, so which condition the
 * workload's copies find is unknown: a verdict is given only where it holds in every measured
 * condition; elsewhere it is EST_VERDICT_DEPENDS, with each condition's figure (the rule:
 * est_verdict_holds_across(), estimate_verdict.h).
 */

/*
 * @mm's quiet figures as the answer of @fr's rows it measured (the model's stay beside them),
 * the rows it lacks counted in @fr->unmeasured, and the best chosen again.
 */
void est_matrix_apply(const struct est_options *o, struct est_family_result *fr,
		      const struct mixmeas *mm);
/*
 * @c's own reading: @fr's rows (modelled figures) with @c->meas's applied, on a copy; sets
 * @c->kind and @c->best. Returns 0 or -ENOMEM.
 */
int est_matrix_read_cell(const struct est_options *o, const struct est_family_result *fr,
			 struct est_cell *c);
/*
 * Which cell the rows show: the cell of estimate's cache state (--cache) with the largest
 * working set (calibrate's reference condition), else the first.
 */
size_t est_matrix_shown(const struct est_options *o, const struct est_family_result *fr);
/*
 * The cell whose condition the profile's own footprint implies (est_footprint_condition():
 * the warm cell of that working set); estimate
 * then keeps that cell alone, and its verdict is the answer. -1 where the profile records no
 * footprint, or calibrate did not measure its condition: every measured condition decides
 * (docs/estimate.md#conditions).
 */
int est_matrix_footprint_cell(const struct est_family_result *fr);
/*
 * Where est_matrix_footprint_cell() names a cell, @fr keeps that one alone; else nothing.
 * Sets fr->footprint_cell to what it named (0 after the collapse, or -1).
 */
void est_matrix_collapse(struct est_family_result *fr);
/* "warm, 8 KiB a side; warm, 256 KiB a side; dst-flushed, 256 KiB a side": every cell's. */
void est_matrix_conditions_text(const struct est_family_result *fr, char *buf, size_t len);
/* The cells as a JSON array: each condition, its verdict, and the contested policy's figure. */
json_object *est_matrix_to_json(const struct est_family_result *fr);

#endif
