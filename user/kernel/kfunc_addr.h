/* SPDX-License-Identifier: GPL-2.0 */
/* kfunc_addr.h: the address of a kernel function, for probes that need one (hardware breakpoints) */
#ifndef CP_KFUNC_ADDR_H
#define CP_KFUNC_ADDR_H

#include <stdint.h>

/* Looks up @func (in @module, or anywhere if NULL) in /proc/kallsyms; prints why it cannot. */
int kfunc_addr_resolve(const char *module, const char *func, uint64_t *addr);

#endif
