/* SPDX-License-Identifier: GPL-2.0 */
/* ifunc.h: which implementation an IFUNC resolver picks on this machine, by running it */
#ifndef CP_IFUNC_H
#define CP_IFUNC_H

#include <stdint.h>

/*
 * Runs the resolver of IFUNC @symbol of ELF file @path, the way the dynamic loader does for a
 * program started here (same CPU, same GLIBC_TUNABLES), by asking this process's loader for
 * the symbol (dlsym runs the resolver). Only a file this process has loaded already is asked
 * (found by device and inode: glibc's libc.so.6, which copyprof is linked with): loading any
 * other file would run its constructors. On success *@impl_vaddr is the implementation's
 * address in @path's own (link-time) addresses and 0 is returned; -ENOENT if @path is not
 * loaded here (always so in a static copyprof), -ESRCH if the loader has no such symbol.
 */
int ifunc_resolve_here(const char *path, const char *symbol, uint64_t *impl_vaddr);

#endif
