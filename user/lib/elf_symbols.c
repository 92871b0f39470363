// SPDX-License-Identifier: GPL-2.0
/* elf_symbols.c: function lookup by name and by address over .symtab, .dynsym and the debug file */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debugfile.h"
#include "elf_symbols.h"

/* Called for each defined function or object of a table; returns true to stop. */
typedef bool visit_fn(const struct elf_symbol *f, void *ctx);

static Elf_Data *versym_data(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_GNU_versym)
			return elf_getdata(scn, NULL);
	return NULL;
}

/*
 * A hidden version (memcpy@GLIBC_2.2.5 beside memcpy@@GLIBC_2.14) is an old compatibility
 * entry that new links never bind to: the default version is what programs call.
 */
static bool is_hidden_version(Elf_Data *versym, size_t i)
{
	GElf_Versym vs;

	return versym && gelf_getversym(versym, (int)i, &vs) && (vs & 0x8000);
}

/* Visits the functions of every table of @elf of type @type; true if @visit stopped. */
static bool walk_table(Elf *elf, Elf64_Word type, bool from_debug, visit_fn *visit, void *ctx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data, *versym;
		GElf_Shdr sh;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)) || !data->d_buf)
			continue;
		versym = type == SHT_DYNSYM ? versym_data(elf) : NULL;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			struct elf_symbol f = { .from_debug = from_debug };
			int t;

			if (!gelf_getsym(data, (int)i, &f.sym) || f.sym.st_shndx == SHN_UNDEF)
				continue;
			t = GELF_ST_TYPE(f.sym.st_info);
			if ((t != STT_FUNC && t != STT_GNU_IFUNC && t != STT_OBJECT) ||
			    is_hidden_version(versym, i))
				continue;
			f.name = elf_strptr(elf, sh.sh_link, f.sym.st_name);
			if (f.name && *f.name && visit(&f, ctx))
				return true;
		}
	}
	return false;
}

static void open_debug(struct elf_symbols *s)
{
	if (s->debug_tried)
		return;
	s->debug_tried = true;
	s->debug_path = debugfile_find(s->path, &s->debug_why);
	if (!s->debug_path)
		return;
	s->debug_fd = open(s->debug_path, O_RDONLY | O_CLOEXEC);
	if (s->debug_fd >= 0)
		s->debug = elf_begin(s->debug_fd, ELF_C_READ_MMAP, NULL);
}

/* The file's .symtab and .dynsym, then (only if those do not stop it) the debug .symtab. */
static bool walk(struct elf_symbols *s, visit_fn *visit, void *ctx)
{
	if (walk_table(s->elf, SHT_SYMTAB, false, visit, ctx) ||
	    walk_table(s->elf, SHT_DYNSYM, false, visit, ctx))
		return true;
	open_debug(s);
	return s->debug && walk_table(s->debug, SHT_SYMTAB, true, visit, ctx);
}

void elf_symbols_init(struct elf_symbols *s, const char *path, Elf *elf)
{
	*s = (struct elf_symbols){ .path = path, .elf = elf, .debug_fd = -1 };
}

void elf_symbols_release(struct elf_symbols *s)
{
	if (s->debug)
		elf_end(s->debug);
	if (s->debug_fd >= 0)
		close(s->debug_fd);
	free(s->debug_path);
	free(s->debug_why);
	*s = (struct elf_symbols){ .debug_fd = -1 };
}

static bool is_function(const struct elf_symbol *f)
{
	return GELF_ST_TYPE(f->sym.st_info) != STT_OBJECT;
}

struct by_name {
	const char *name;
	struct elf_symbol *out;
	bool objects; /* look for data, not functions */
};

static bool match_name(const struct elf_symbol *f, void *ctx)
{
	struct by_name *b = ctx;

	if (is_function(f) == b->objects || strcmp(f->name, b->name))
		return false;
	*b->out = *f;
	return true;
}

bool elf_symbols_by_name(struct elf_symbols *s, const char *name, struct elf_symbol *out)
{
	struct by_name b = { .name = name, .out = out };

	return walk(s, match_name, &b);
}

bool elf_symbols_object(struct elf_symbols *s, const char *name, struct elf_symbol *out)
{
	struct by_name b = { .name = name, .out = out, .objects = true };

	return walk(s, match_name, &b);
}

struct by_addr {
	uint64_t vaddr;
	struct elf_symbol *out;
	bool found;
};

static bool match_cover(const struct elf_symbol *f, void *ctx)
{
	struct by_addr *b = ctx;

	if (!is_function(f) || !f->sym.st_size || b->vaddr < f->sym.st_value ||
	    b->vaddr - f->sym.st_value >= f->sym.st_size)
		return false;
	*b->out = *f;
	return true;
}

bool elf_symbols_covering(struct elf_symbols *s, uint64_t vaddr, struct elf_symbol *out)
{
	struct by_addr b = { .vaddr = vaddr, .out = out };

	return walk(s, match_cover, &b);
}

struct names_at {
	uint64_t vaddr;
	const char **names;
	size_t n, max;
};

static bool collect_at(const struct elf_symbol *f, void *ctx)
{
	struct names_at *a = ctx;
	size_t i;

	if (f->sym.st_value != a->vaddr || GELF_ST_TYPE(f->sym.st_info) != STT_FUNC)
		return false;
	for (i = 0; i < a->n; i++)
		if (!strcmp(a->names[i], f->name))
			return false;
	if (a->n < a->max)
		a->names[a->n++] = f->name;
	return false;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t elf_symbols_at(struct elf_symbols *s, uint64_t vaddr, const char **names, size_t max)
{
	struct names_at a = { .vaddr = vaddr, .names = names, .max = max };

	walk(s, collect_at, &a);
	qsort(names, a.n, sizeof(*names), cmp_names);
	return a.n;
}

void elf_symbols_searched(struct elf_symbols *s, char *buf, size_t len)
{
	if (s->debug)
		snprintf(buf, len, ".symtab and .dynsym of %s and the .symtab of its debug file %s",
			 s->path, s->debug_path);
	else if (s->debug_path)
		snprintf(buf, len, ".symtab and .dynsym of %s; its debug file %s could not be read",
			 s->path, s->debug_path);
	else
		snprintf(buf, len, ".symtab and .dynsym of %s; no debug file: %s", s->path,
			 s->debug_why ?: "not looked for");
}
