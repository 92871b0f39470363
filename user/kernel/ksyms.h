/* SPDX-License-Identifier: GPL-2.0 */
/* ksyms.h: the kernel's symbol table from /proc/kallsyms: by name, by address, by module */
#ifndef CP_KSYMS_H
#define CP_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ksym {
	uint64_t addr;
	char type; /* kallsyms type letter: t/T text, W weak, d/D data ... */
	char *name;
	char *module; /* NULL for the core kernel ("vmlinux") */
};

struct ksyms {
	struct ksym *syms; /* sorted by address, then by file order */
	size_t nr;
	size_t *by_name;  /* hash table by name of indexes into syms + 1 (0: empty), ksyms.c */
	size_t name_mask; /* its size - 1 (a power of two) */
	char *path;
	/*
	 * Every address read as zero: kallsyms hides addresses from readers without
	 * CAP_SYSLOG when kernel.kptr_restrict is set (or always, with kptr_restrict=2).
	 */
	bool restricted;
};

/*
 * A kallsyms listing's longest line (KSYM_NAME_LEN is 512, then the module) and largest size
 * (docs/cli.md#input-limits): /proc/kallsyms of a distribution kernel is 5 to 20 MiB.
 */
#define KSYMS_MAX_LINE 4096
#define KSYMS_MAX_BYTES (256ULL << 20)

/* Loads @path (NULL: /proc/kallsyms). Prints why and returns NULL on failure. */
struct ksyms *ksyms_load(const char *path);
/* Parses kallsyms text from @f; @name is only used in messages. */
struct ksyms *ksyms_parse(FILE *f, const char *name);
void ksyms_free(struct ksyms *ks);

/*
 * The first symbol called @name, in @module ("vmlinux" or NULL for the core kernel only,
 * "*" for any), lowest address first. NULL if there is none.
 */
const struct ksym *ksyms_find(const struct ksyms *ks, const char *name, const char *module);
/* Every symbol called @name in @module (as above) into @out (at most @max); returns the count. */
size_t ksyms_find_all(const struct ksyms *ks, const char *name, const char *module,
		      const struct ksym **out, size_t max);
/* Address of @name in the core kernel, or 0. */
uint64_t ksyms_addr(const struct ksyms *ks, const char *name);

/*
 * The symbol containing @addr: the highest one at or below it (the first name at that
 * address; see ksyms_aliases). Its size runs to the next higher address in the same
 * module. NULL below the first symbol or past a module's last one.
 */
const struct ksym *ksyms_at(const struct ksyms *ks, uint64_t addr, uint64_t *offset,
			    uint64_t *size);
/* Size of @sym: distance to the next higher address in the same module (0 if last). */
uint64_t ksyms_size(const struct ksyms *ks, const struct ksym *sym);
/*
 * All names at @sym's address (memcpy, __memcpy, __pi_memcpy ...), in file order, into @out
 * (at most @max). Returns the count.
 */
size_t ksyms_aliases(const struct ksyms *ks, const struct ksym *sym, const struct ksym **out,
		     size_t max);
/* True if @module has any symbol, i.e. is loaded. */
bool ksyms_has_module(const struct ksyms *ks, const char *module);
/*
 * True if @module is built into this kernel: not loaded as a module, and the core kernel has
 * text symbols named "@module_..." (btrfs_decompress is T in kallsyms), or /sys/module/@module
 * exists without the initstate a loadable module has.
 */
bool ksyms_module_builtin(const struct ksyms *ks, const char *module);

#endif
