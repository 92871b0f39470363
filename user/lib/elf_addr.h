/* SPDX-License-Identifier: GPL-2.0 */
/* elf_addr.h: name a place in a user-space ELF file (a file offset) as FUNC+OFF, with libelf */
#ifndef CP_ELF_ADDR_H
#define CP_ELF_ADDR_H

#include <stdint.h>

/* The files opened so far, each read once: symbols sorted by address, load segments. */
struct elf_addrs;

struct elf_addrs *elf_addrs_new(void);
void elf_addrs_free(struct elf_addrs *c);

/*
 * Names file offset @off of ELF file @path (as a uprobe's or a mapping's offset): *@vaddr gets
 * its link-time address, *@sym the function holding it (owned by @c) and *@sym_off the offset
 * in it. Functions come from .symtab (local ones too), else from the debug file of its build id
 * (/usr/lib/debug/.build-id/xx/rest.debug), and from .dynsym. Returns 0; -ENOENT when no
 * function covers it (*@vaddr still set, for addr2line -e @path); -ENOEXEC or -errno when
 * @path cannot be read as ELF or @off is in no loaded segment.
 */
int elf_addrs_name(struct elf_addrs *c, const char *path, uint64_t off, uint64_t *vaddr,
		   const char **sym, uint64_t *sym_off);

#endif
