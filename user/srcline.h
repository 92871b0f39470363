/* SPDX-License-Identifier: GPL-2.0 */
/* srcline.h: an ELF address to its source file:line and inline chain, from DWARF (libdw) */
#ifndef CP_SRCLINE_H
#define CP_SRCLINE_H

#include <stdint.h>
#include "profile.h"

/*
 * Looks up @addr, a link-time address of ELF file @path (st_value + offset for a symbol), in
 * the DWARF of @path or of its separate debug file (libdwfl's standard search: .gnu_debuglink,
 * /usr/lib/debug/.build-id, and debuginfod when DEBUGINFOD_URLS is set). Returns a new source
 * position (free with profile_source_free()), or NULL when there is no DWARF or no line for
 * @addr: that is not an error, so the reason goes to p_debug only.
 */
struct profile_source *srcline_lookup(const char *path, uint64_t addr);

#endif
