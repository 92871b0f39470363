/* SPDX-License-Identifier: GPL-2.0 */
/* elf_symbols.h: the function symbols of an ELF file and of its separate debug file */
#ifndef CP_ELF_SYMBOLS_H
#define CP_ELF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <gelf.h>

/*
 * The tables searched, in order: the file's .symtab, its .dynsym (default symbol versions
 * only: the hidden compatibility memcpy@GLIBC_2.2.5 is skipped), then the .symtab of its debug
 * file (lib/debugfile.h), which is looked for only when a lookup needs it.
 */
struct elf_symbols {
	const char *path; /* the file, as given to elf_symbols_init() */
	Elf *elf;	  /* its ELF handle, owned by the caller */
	bool debug_tried;
	int debug_fd;
	Elf *debug;
	char *debug_path; /* the debug file, or NULL (then debug_why says why) */
	char *debug_why;
};

/* A function symbol found in one of the tables. */
struct elf_symbol {
	GElf_Sym sym;
	const char *name; /* valid until elf_symbols_release() */
	bool from_debug;  /* found in the debug file's table */
};

void elf_symbols_init(struct elf_symbols *s, const char *path, Elf *elf);
void elf_symbols_release(struct elf_symbols *s);

/* The function (STT_FUNC or STT_GNU_IFUNC) named @name; false if no table has it. */
bool elf_symbols_by_name(struct elf_symbols *s, const char *name, struct elf_symbol *out);
/* The data object (STT_OBJECT) named @name, e.g. glibc's hidden __x86_rep_movsb_threshold. */
bool elf_symbols_object(struct elf_symbols *s, const char *name, struct elf_symbol *out);
/* The function whose [st_value, st_value + st_size) holds @vaddr (sized symbols only). */
bool elf_symbols_covering(struct elf_symbols *s, uint64_t vaddr, struct elf_symbol *out);
/*
 * Up to @max distinct names of the functions that start at @vaddr (aliases such as
 * __memmove_avx512_unaligned_erms and __memcpy_avx512_unaligned_erms), sorted; returns how
 * many. The names stay valid until elf_symbols_release().
 */
size_t elf_symbols_at(struct elf_symbols *s, uint64_t vaddr, const char **names, size_t max);
/* What elf_symbols_by_name() searched, for messages: ".symtab and .dynsym of X and Y". */
void elf_symbols_searched(struct elf_symbols *s, char *buf, size_t len);

#endif
