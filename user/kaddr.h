/* SPDX-License-Identifier: GPL-2.0 */
/* kaddr.h: the address of a kernel function, for probes that need one (hardware breakpoints) */
#ifndef CP_KADDR_H
#define CP_KADDR_H

#include <stdint.h>

/* Looks up @func (in @module, or anywhere if NULL) in /proc/kallsyms; prints why it cannot. */
int kaddr_resolve(const char *module, const char *func, uint64_t *addr);

#endif
