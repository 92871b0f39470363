/* SPDX-License-Identifier: GPL-2.0 */
/* eh_frame_hdr.h: function start addresses from .eh_frame_hdr, which stripping keeps */
#ifndef CP_EH_FRAME_HDR_H
#define CP_EH_FRAME_HDR_H

#include <stdint.h>
#include <gelf.h>

/*
 * The unwind table's sorted list of function starts (each FDE's initial location), read
 * through the PT_GNU_EH_FRAME segment. Sets *@start to the greatest start <= @vaddr and
 * *@next to the following start (UINT64_MAX if none). Returns 0, -ENOENT (no table, or no
 * start at or below @vaddr) or -EINVAL (an encoding other than the one GNU ld writes).
 */
int eh_frame_hdr_func_start(Elf *elf, uint64_t vaddr, uint64_t *start, uint64_t *next);

#endif
