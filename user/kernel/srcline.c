// SPDX-License-Identifier: GPL-2.0
/* srcline.c: source file:line and inline chain of an address, with libdwfl's offline API */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include "lib/log.h"
#include "srcline.h"

static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* The name of DW_AT_call_file @idx in the CU's file table, or NULL. */
static const char *cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t n;

	if (dwarf_getsrcfiles(cu, &files, &n) || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static int inline_frame(Dwarf_Die *cu, Dwarf_Die *die, struct source_inline *f)
{
	Dwarf_Attribute attr;
	Dwarf_Word idx = 0, line = 0;
	const char *name = dwarf_diename(die), *file;

	dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &idx);
	dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &line);
	file = cu_file(cu, idx);
	f->function = strdup(name ?: "?");
	f->file = strdup(file ?: "?");
	f->line = (uint32_t)line;
	return f->function && f->file ? 0 : -ENOMEM;
}

/* Fills @src->inlined from the scopes at @addr: libdw gives them innermost first. */
static int inline_chain(Dwarf_Die *cu, Dwarf_Addr addr, struct source_pos *src)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, addr, &scopes), i, err = 0;

	for (i = n - 1; i >= 0 && !err; i--) {
		struct source_inline *v;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		v = realloc(src->inlined, (src->nr_inlined + 1) * sizeof(*v));
		if (!v) {
			err = -ENOMEM;
			break;
		}
		src->inlined = v;
		memset(&v[src->nr_inlined], 0, sizeof(*v));
		err = inline_frame(cu, &scopes[i], &v[src->nr_inlined++]);
	}
	free(scopes);
	return err;
}

/* Adds the names of the variables declared directly in lexical block @block. */
static void block_vars(Dwarf_Die *block, struct srcline_vars *v)
{
	Dwarf_Die child;
	char **names;

	if (dwarf_child(block, &child))
		return;
	do {
		const char *name = dwarf_diename(&child);

		if (dwarf_tag(&child) != DW_TAG_variable || !name)
			continue;
		names = realloc(v->names, (v->nr + 1) * sizeof(*names));
		if (!names)
			return;
		v->names = names;
		if ((names[v->nr] = strdup(name)))
			v->nr++;
	} while (!dwarf_siblingof(&child, &child));
}

/*
 * Walks the concrete DIE tree down through the scopes that contain @addr. dwarf_getscopes()
 * would not do: past an inlined call it continues in the inlined function's abstract tree, so
 * the caller's blocks around the call (where zstd's stage variables are) are never seen.
 */
static void scope_vars(Dwarf_Die *parent, Dwarf_Addr addr, struct srcline_vars *v)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag != DW_TAG_subprogram && tag != DW_TAG_lexical_block &&
		    tag != DW_TAG_inlined_subroutine)
			continue;
		if (dwarf_haspc(&child, addr) <= 0)
			continue;
		if (tag == DW_TAG_lexical_block)
			block_vars(&child, v);
		scope_vars(&child, addr, v);
		return;
	} while (!dwarf_siblingof(&child, &child));
}

void srcline_vars_free(struct srcline_vars *v)
{
	while (v && v->nr)
		free(v->names[--v->nr]);
	if (v) {
		free(v->names);
		v->names = NULL;
	}
}

/* @a is an address in the module's own (biased) layout. */
static struct source_pos *lookup(Dwfl_Module *mod, Dwarf_Addr a, struct srcline_vars *vars)
{
	struct source_pos *src;
	Dwarf_Addr bias;
	Dwarf_Die *cu;
	Dwfl_Line *l;
	const char *file, *dir;
	int line = 0;

	l = dwfl_module_getsrc(mod, a);
	file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
	if (!file) {
		p_debug("srcline: no line for 0x%llx: %s", (unsigned long long)a, dwfl_errmsg(-1));
		return NULL;
	}
	src = calloc(1, sizeof(*src));
	if (!src)
		goto fail;
	/* A relative name is relative to the compilation folder: make it findable. */
	dir = file[0] != '/' ? dwfl_line_comp_dir(l) : NULL;
	if (dir ? asprintf(&src->file, "%s/%s", dir, file) < 0 : !(src->file = strdup(file))) {
		src->file = NULL;
		goto fail;
	}
	src->line = (uint32_t)line;
	cu = dwfl_module_addrdie(mod, a, &bias);
	if (cu && inline_chain(cu, a - bias, src))
		goto fail;
	if (cu && vars)
		scope_vars(cu, a - bias, vars);
	return src;
fail:
	p_err("srcline: out of memory");
	source_pos_free(src);
	return NULL;
}

struct srcline_file {
	Dwfl *dwfl;
	Dwfl_Module *mod;
};

struct srcline_file *srcline_open(const char *path)
{
	struct srcline_file *f = calloc(1, sizeof(*f));

	if (!f || !(f->dwfl = dwfl_begin(&offline_callbacks))) {
		p_err("srcline: %s", f ? dwfl_errmsg(-1) : "out of memory");
		free(f);
		return NULL;
	}
	f->mod = dwfl_report_offline(f->dwfl, path, path, -1);
	if (dwfl_report_end(f->dwfl, NULL, NULL) || !f->mod) {
		p_err("cannot read DWARF of %s: %s", path, dwfl_errmsg(-1));
		srcline_close(f);
		return NULL;
	}
	return f;
}

void srcline_close(struct srcline_file *f)
{
	if (!f)
		return;
	dwfl_end(f->dwfl);
	free(f);
}

struct source_pos *srcline_symbol(struct srcline_file *f, const char *symbol, uint64_t offset,
				  struct srcline_vars *vars)
{
	int i, n = dwfl_module_getsymtab(f->mod);

	for (i = 1; i < n; i++) {
		const char *name;
		GElf_Addr addr;
		GElf_Sym sym;

		name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, NULL, NULL, NULL);
		if (name && GELF_ST_TYPE(sym.st_info) == STT_FUNC && !strcmp(name, symbol) &&
		    offset < (sym.st_size ?: 1))
			return lookup(f->mod, addr + offset, vars);
	}
	p_debug("srcline: no function %s covering +0x%llx", symbol, (unsigned long long)offset);
	return NULL;
}

struct source_pos *srcline_lookup(const char *path, uint64_t addr)
{
	struct source_pos *src = NULL;
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	Dwfl_Module *mod;
	Dwarf_Addr bias;

	if (!dwfl) {
		p_debug("srcline: libdwfl: %s", dwfl_errmsg(-1));
		return NULL;
	}
	mod = dwfl_report_offline(dwfl, path, path, -1);
	if (dwfl_report_end(dwfl, NULL, NULL) || !mod)
		p_debug("srcline: %s: %s", path, dwfl_errmsg(-1));
	/* Offline, a PIE or library is laid out at a made-up base: its bias from link addresses. */
	else if (!dwfl_module_getelf(mod, &bias))
		p_debug("srcline: %s", dwfl_errmsg(-1));
	else
		src = lookup(mod, addr + bias, NULL);
	dwfl_end(dwfl);
	return src;
}

void source_pos_free(struct source_pos *src)
{
	size_t i;

	if (!src)
		return;
	for (i = 0; i < src->nr_inlined; i++) {
		free(src->inlined[i].function);
		free(src->inlined[i].file);
	}
	free(src->inlined);
	free(src->file);
	free(src);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

struct source_pos *source_pos_dup(const struct source_pos *src)
{
	struct source_pos *d = calloc(1, sizeof(*d));
	size_t i;

	if (!d)
		return NULL;
	d->file = dup_or_null(src->file);
	d->line = src->line;
	d->inlined = calloc(src->nr_inlined ?: 1, sizeof(*d->inlined));
	if (!d->inlined) {
		source_pos_free(d);
		return NULL;
	}
	for (i = 0; i < src->nr_inlined; i++, d->nr_inlined++) {
		d->inlined[i].function = dup_or_null(src->inlined[i].function);
		d->inlined[i].file = dup_or_null(src->inlined[i].file);
		d->inlined[i].line = src->inlined[i].line;
	}
	return d;
}
