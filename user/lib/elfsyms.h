/* SPDX-License-Identifier: GPL-2.0 */
/* elfsyms.h: find a function in an ELF file (executable, PIE or shared library) with libelf */
#ifndef CP_ELFSYMS_H
#define CP_ELFSYMS_H

#include <stdbool.h>
#include <stdint.h>

struct elf_func {
	char *path;	/* resolved path of the ELF file */
	uint64_t vaddr; /* the symbol's st_value */
	uint64_t size;
	uint64_t file_offset; /* where a uprobe attaches: symbol + offset, as a file offset */
};

/* Finds @name as given, or in $PATH and the system library folders when it has no '/'. */
char *elfsyms_find_file(const char *name);
/*
 * Resolves @symbol (+@offset) in @path through .symtab, then .dynsym. Prints the reason
 * and returns -ENOENT (no file/symbol), -ENOEXEC (not ELF) or -EINVAL (IFUNC, bad offset).
 */
int elfsyms_resolve(const char *path, const char *symbol, uint64_t offset, struct elf_func *out);
void elf_func_free(struct elf_func *f);

#endif
