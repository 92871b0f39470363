/* SPDX-License-Identifier: GPL-2.0 */
/* verify_share.h: the copies' share of the program's CPU time, sampled in verify's runs A */
#ifndef CP_VERIFY_SHARE_H
#define CP_VERIFY_SHARE_H

#include <stdbool.h>
#include <stdint.h>
#include "profile/profile.h"
#include "record/hist_session.h"

struct verify_share {
	struct hist_session *hs;
	uint64_t at_start[CP_NR_SHARE]; /* the counts when the current run A began */
	uint64_t sum[CP_NR_SHARE];	/* the runs A's samples, summed */
};

/*
 * Opens the copy-time share sampler (bpf/copy_share.h) on the copy functions of @p's uprobe
 * sites, for this process's children (verify's runs): false, said at debug level, when there
 * is none or it cannot be loaded (the prediction keeps the recording's share).
 */
bool verify_share_open(struct verify_share *vs, const struct profile *p);
/* verify_opts.around_a: the samples of each run A, added up. */
void verify_share_around_a(void *ctx, bool before);
void verify_share_close(struct verify_share *vs);

#endif
