/* SPDX-License-Identifier: GPL-2.0 */
/* site_callers.h: name the callers of kernel entry sites (from their return addresses) */
#ifndef CP_SITE_CALLERS_H
#define CP_SITE_CALLERS_H

#include "kernel/ksyms.h"
#include "profile.h"

/*
 * Gives each caller of @p's sites that has an address and no name its function, module and
 * return-address offset from kallsyms (@ks; the symbol containing address - 1, so that a call
 * that ends a function is charged to it), merges callers that name the same place, and sorts
 * them by calls.
 */
void site_callers_name(struct profile *p, const struct ksyms *ks);

#endif
