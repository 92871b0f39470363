/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_report_sample.h: the text view of a sampled profile: copy share, leaves, callers, lengths */
#ifndef CP_REPORT_SAMPLE_H
#define CP_REPORT_SAMPLE_H

#include <stdbool.h>
#include <stdio.h>
#include "profile/profile.h"

/* True if @p was sampled (record --sample, import-perf). */
bool report_sample_is_sampled(const struct profile *p);
/*
 * The copy family's share of all samples, its split by leaf and by caller function (at
 * most @top rows each; 0: all), length quality, and the time-weighted length histogram.
 */
void report_sample_print(FILE *f, const struct profile *p, int top);

#endif
