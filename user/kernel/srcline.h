/* SPDX-License-Identifier: GPL-2.0 */
/* srcline.h: an ELF address to its source file:line and inline chain, from DWARF (libdw) */
#ifndef CP_SRCLINE_H
#define CP_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

/* One inlined frame of a site's source position: @function was inlined at @file:@line. */
struct source_inline {
	char *function;
	char *file;
	uint32_t line;
};

/* Where a site is in the source (from DWARF); inlined[] is outermost first. */
struct source_pos {
	char *file;
	uint32_t line;
	struct source_inline *inlined;
	size_t nr_inlined;
};

void source_pos_free(struct source_pos *src);
/* A deep copy of @src, or NULL on allocation failure. */
struct source_pos *source_pos_dup(const struct source_pos *src);

/*
 * Looks up @addr, a link-time address of ELF file @path (st_value + offset for a symbol), in
 * the DWARF of @path or of its separate debug file (libdwfl's standard search: .gnu_debuglink,
 * /usr/lib/debug/.build-id). Returns a new source position (free with source_pos_free()),
 * or NULL when there is no DWARF or no line for @addr: that is not an error, so the reason
 * goes to p_debug only.
 */
struct source_pos *srcline_lookup(const char *path, uint64_t addr);

/* An ELF file with DWARF, opened once for many lookups (a debug vmlinux is 350 MB). */
struct srcline_file;

/* Opens @path (an executable, a vmlinux or a relocatable .ko); NULL with the reason printed. */
struct srcline_file *srcline_open(const char *path);
void srcline_close(struct srcline_file *f);

/* The names of the variables that the lexical blocks around an address declare. */
struct srcline_vars {
	char **names;
	size_t nr;
};

/*
 * Looks up function @symbol + @offset (the function with that name whose size covers the
 * offset). Fills @vars (may be NULL; free with srcline_vars_free()) with the variables of the
 * enclosing lexical blocks, which name a stage of a function when its source has no
 * function for it (docs/presets.md#labels). NULL as for srcline_lookup().
 */
struct source_pos *srcline_symbol(struct srcline_file *f, const char *symbol, uint64_t offset,
				  struct srcline_vars *vars);
void srcline_vars_free(struct srcline_vars *v);

#endif
