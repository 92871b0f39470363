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

/*
 * A count inferred from samples, rounded to 3 significant digits, as a whole number with
 * thousands separators ("4,310,000", "1,280", "12"): never fractional, never %g. Returns @buf.
 */
const char *est_count_str(double n, char *buf, size_t len);
/*
 * An interval's bounds, signed, joined by @sep ("-18.29 .. -12.08" with " .. "), with @prec
 * decimals or, where those would print both bounds alike, up to 4: an interval is never shown
 * as "a .. a" ("-66.7% to -66.7%" was a counting interval 0.03 points wide). Returns @buf.
 */
const char *est_interval_str(double lo, double hi, int prec, const char *sep, const char *unit,
			     char *buf, size_t len);

#endif
