/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_text.h: estimate's text output (docs/estimate.md) */
#ifndef CP_ESTIMATE_TEXT_H
#define CP_ESTIMATE_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include "estimate_run.h"

/* Per family of @r: today's code, the policy table, the best T, notes, per site, a summary. */
void est_print_text(FILE *f, const struct est_report *r, bool verbose);

#endif
