/* SPDX-License-Identifier: GPL-2.0 */
/* record_dispatch.h: the running kernel's copy dispatch, kept in a kernel recording's meta */
#ifndef CP_RECORD_DISPATCH_H
#define CP_RECORD_DISPATCH_H

#include "profile/profile.h"

/*
 * Sets @p->dispatch to what `copyprof probe` reports for the running kernel: decoded from
 * /proc/kcore where it can be, else from the table for this kernel and @p's CPU flags
 * (docs/profile-format.md#dispatch). Nothing is set if kallsyms cannot be read.
 */
void record_dispatch_fill(struct profile *p);

#endif
