/* SPDX-License-Identifier: GPL-2.0 */
/* preset.h: named sets of kernel functions to probe (presets/NAME.preset, docs/presets.md) */
#ifndef CP_PRESET_H
#define CP_PRESET_H

#include <stddef.h>

enum preset_kind { PRESET_SITE, PRESET_ENTRY };

struct preset_item {
	enum preset_kind kind;
	char *spec; /* [MOD:]FUNC[+OFF][,len=REG] */
	int line;
};

/*
 * "label FUNC VAR NAME": a call site in FUNC whose enclosing lexical blocks declare a variable
 * VAR is stage NAME (zstd's zdss_flush declares flushedSize). Needs DWARF (ksource.h).
 */
struct preset_label {
	char *function;
	char *var;
	char *name;
};

struct preset {
	char *name;
	char *path;
	char *description;
	struct preset_item *items;
	size_t nr_items;
	struct preset_label *labels;
	size_t nr_labels;
};

/* A preset compiled into the binary: the shipped presets/ files (build/presets_builtin.c). */
struct preset_builtin {
	const char *name;
	const char *text;
};

extern const struct preset_builtin preset_builtins[];

/*
 * Loads preset @name (or a path to a .preset file). Searched in $COPYPROF_PRESETS, then
 * ~/.config/copyprof/presets, the installed share folder, presets/ beside the binary's
 * source tree, and last the copies built into the binary. Prints why it cannot (listing the
 * presets found). Returns 0 or -errno.
 */
int preset_load(const char *name, struct preset **out);
void preset_free(struct preset *p);
/*
 * Loads every preset found (files in the search path, then the built-in ones not shadowed by
 * a file), skipping, with a warning, any that cannot be read. Returns how many (0 on none or
 * out of memory); free each with preset_free() and the array with free().
 */
size_t preset_load_all(struct preset ***out);
/* Prints the available presets on stderr, each name once, with the folder it comes from. */
void preset_list(void);

#endif
