/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_validation.h: --validate's verdict on the best threshold */
#ifndef CP_ESTIMATE_VALIDATION_H
#define CP_ESTIMATE_VALIDATION_H

#include <stdbool.h>
#include "estimate_result.h"

/*
 * --validate's verdict on the best threshold: the measured best threshold row (-1: none
 * measured), and whether the predicted best is the same optimum: the same row, or measured
 * within the larger of the noise floor and EST_FLAT_FRACTION of today of the measured best
 * (*@gap_pp: how far, in points). docs/estimate.md#--validate
 */
int est_validation_best(const struct est_family_result *fr, double *gap_pp, bool *same);

#endif
