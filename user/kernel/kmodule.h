/* SPDX-License-Identifier: GPL-2.0 */
/* kmodule.h: a module's .ko file: find, decompress, read a function and its relocations */
#ifndef CP_KMODULE_H
#define CP_KMODULE_H

#include <stddef.h>
#include <stdint.h>

struct kmod_reloc {
	uint64_t offset; /* of the relocated field, from the function's start */
	uint32_t type;	 /* R_X86_64_PLT32, R_X86_64_PC32 ... */
	int64_t addend;
	char *symbol; /* the symbol's name ("memcpy"); for a section symbol, the section */
};

struct kmod_func {
	char *ko_path;
	uint8_t *bytes; /* the function as in the file: call fields unrelocated (zero) */
	size_t len;
	struct kmod_reloc *relocs; /* sorted by offset */
	size_t nr_relocs;
};

/*
 * The .ko of @module (kallsyms' name: '-' and '_' are the same) under @modules_dir (NULL:
 * /lib/modules/$(uname -r)), through modules.dep, else by walking the folder. The file may be
 * plain or .ko.xz/.ko.zst/.ko.gz; modules.dep's name is also tried without its suffix (a
 * decompressed copy). Returns a malloc'ed path, or NULL with the reason in *@why (malloc'ed).
 */
char *kmodule_find(const char *modules_dir, const char *module, char **why);
/*
 * Reads function @func (an STT_FUNC in .symtab) of the .ko at @path, decompressing it first,
 * with the relocations that apply inside it. Returns 0, or -ENOENT/-ENOEXEC/-ENOMEM with
 * the reason in *@why (malloc'ed).
 */
int kmodule_read_func(const char *path, const char *func, struct kmod_func *out, char **why);
void kmod_func_free(struct kmod_func *f);

#endif
