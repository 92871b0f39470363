/* SPDX-License-Identifier: GPL-2.0 */
/* hist_print.h: text views of a length histogram (bcc print_log2_hist style, top sizes) */
#ifndef CP_HIST_PRINT_H
#define CP_HIST_PRINT_H

#include <stdio.h>
#include "hist.h"

/* Power-of-two rows with star bars, counts and bytes. */
void hist_print_log2(FILE *f, const struct hist_slot *buckets);
/* The @n most frequent buckets; exact sizes where the bucket holds one length only. */
void hist_print_top(FILE *f, const struct hist_slot *buckets, int n);

#endif
