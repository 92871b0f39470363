/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_summary.h: the one-paragraph summary a patch author can paste into a commit message */
#ifndef CP_ESTIMATE_SUMMARY_H
#define CP_ESTIMATE_SUMMARY_H

#include <stdio.h>
#include "estimate_result.h"
#include "estimate_run.h"

/* The summary paragraph unwrapped (malloc'd), or NULL. */
char *est_summary_text(const struct est_report *r, const struct est_family_result *fr);
/* The paste-ready commit-message paragraph for one family (wrapped at 72 columns). */
void est_print_summary(FILE *f, const struct est_report *r, const struct est_family_result *fr);

#endif
