/* SPDX-License-Identifier: GPL-2.0 */
/* estimate.h: what another REP MOVSB/STOSB threshold would save: inputs, policies, results */
#ifndef CP_ESTIMATE_H
#define CP_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "calib/costmodel.h"
#include "lib/hist.h"
#include "profile/profile.h"
#include "estimate_family.h"
#include "estimate_options.h"
#include "estimate_input.h"
#include "estimate_policy.h"
#include "estimate_mix.h"
#include "estimate_neighbour.h"
#include "estimate_result.h"
#include "estimate_model.h"
#include "estimate_run.h"


/*
 * --validate's verdict on the best threshold: the measured best threshold row (-1: none
 * measured), and whether the predicted best is the same optimum: the same row, or measured
 * within the larger of the noise floor and EST_FLAT_FRACTION of today of the measured best
 * (*@gap_pp: how far, in points). docs/estimate.md#--validate
 */
int est_validation_best(const struct est_family_result *fr, double *gap_pp, bool *same);


void est_print_text(FILE *f, const struct est_report *r, bool verbose);
/* The summary paragraph unwrapped (malloc'd), or NULL. */
char *est_summary_text(const struct est_report *r, const struct est_family_result *fr);
/* The paste-ready commit-message paragraph for one family (wrapped at 72 columns). */
void est_print_summary(FILE *f, const struct est_report *r, const struct est_family_result *fr);
json_object *est_report_to_json(const struct est_report *r);
/*
 * The document estimate --json prints: format, version, the cache mix, and @inputs, an array
 * of est_report_to_json() objects (a reference to it is taken).
 */
json_object *est_json_document(const struct est_cache *cache, json_object *inputs);

#endif
