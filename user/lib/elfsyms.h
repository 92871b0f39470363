/* SPDX-License-Identifier: GPL-2.0 */
/* elfsyms.h: find a uprobe target in an ELF file (executable, PIE or shared library) */
#ifndef CP_ELFSYMS_H
#define CP_ELFSYMS_H

#include <stdbool.h>
#include <stdint.h>

struct elf_func {
	char *path;	      /* resolved path of the ELF file */
	char *symbol;	      /* the function holding the target; NULL if it has no name */
	uint64_t vaddr;	      /* the function's start (st_value, or its unwind-table start) */
	uint64_t size;	      /* its st_size; 0 if unknown */
	uint64_t offset;      /* the target's offset into the function */
	uint64_t file_offset; /* where a uprobe attaches: vaddr + offset, as a file offset */
};

/* Finds @name as given, or in $PATH and the system library folders when it has no '/'. */
char *elfsyms_find_file(const char *name);
/*
 * Resolves @symbol (+@offset) in @path through its .symtab, its .dynsym and then its separate
 * debug file's .symtab (lib/elf_symbols.h, lib/debugfile.h). An offset must start an
 * instruction (decoded with Capstone). An IFUNC is refused with the implementation its
 * resolver picks on this CPU and the command to probe it (lib/ifunc.h). Prints the reason and
 * returns -ENOENT (no file/symbol), -ENOEXEC (not ELF) or -EINVAL (IFUNC, bad offset).
 */
int elfsyms_resolve(const char *path, const char *symbol, uint64_t offset, struct elf_func *out);
/*
 * The raw form PATH:0xOFFSET: @file_offset must be in an executable segment and start an
 * instruction of the function holding it, found in the symbol tables or, in a stripped file
 * without a debug file, in the unwind table (.eh_frame_hdr). Same returns as above.
 */
int elfsyms_resolve_file_offset(const char *path, uint64_t file_offset, struct elf_func *out);
void elf_func_free(struct elf_func *f);

#endif
