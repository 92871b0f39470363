// SPDX-License-Identifier: GPL-2.0
/* ksyms.c: load /proc/kallsyms (modules included) and look symbols up by name and address */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "ksyms.h"
#include "lib/fnv.h"
#include "lib/line_reader.h"
#include "lib/log.h"

struct ksym_sortable {
	struct ksym sym;
	size_t seq; /* file order: keeps the kernel's own order among aliases */
};

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym_sortable *x = a, *y = b;

	if (x->sym.addr != y->sym.addr)
		return x->sym.addr < y->sym.addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The by-name index: an open-addressing table of symbol indexes + 1 (0: empty), filled in
 * address order, so that the symbols of one name are met lowest address first along a probe
 * sequence. It replaces a sort by name: 2 million strcmp()s on scattered strings, 29 to 735 ms
 * of a 121,000-symbol kallsyms on a busy 2-CPU guest, against one pass.
 */
static uint64_t name_hash(const char *name)
{
	return fnv1a64_str(FNV1A64_INIT, name);
}

static int index_names(struct ksyms *ks)
{
	size_t slots = 16, i, at;

	while (slots < 2 * ks->nr)
		slots *= 2;
	ks->by_name = calloc(slots, sizeof(*ks->by_name));
	if (!ks->by_name)
		return -ENOMEM;
	ks->name_mask = slots - 1;
	for (i = 0; i < ks->nr; i++) {
		for (at = name_hash(ks->syms[i].name) & ks->name_mask; ks->by_name[at];
		     at = (at + 1) & ks->name_mask)
			;
		ks->by_name[at] = i + 1;
	}
	return 0;
}

/* Already in address order (kallsyms of a kernel without modules is): no sort needed. */
static bool sorted_by_addr(const struct ksym_sortable *v, size_t nr)
{
	size_t i;

	for (i = 1; i < nr; i++)
		if (v[i].sym.addr < v[i - 1].sym.addr)
			return false;
	return true;
}

/* One "ADDR TYPE NAME[\t[MODULE]]" line into @s; false for a malformed line. */
static bool parse_line(char *line, struct ksym *s)
{
	char *end, *name, *mod;

	s->addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || !end[1] || end[2] != ' ')
		return false;
	s->type = end[1];
	name = end + 3;
	name[strcspn(name, "\n")] = 0;
	mod = strchr(name, '\t');
	if (!mod)
		mod = strchr(name, ' ');
	s->module = NULL;
	if (mod) {
		*mod++ = 0;
		mod += strspn(mod, " \t");
		if (*mod == '[') {
			mod++;
			mod[strcspn(mod, "]")] = 0;
			s->module = strdup(mod);
		}
	}
	if (!*name)
		return false;
	s->name = strdup(name);
	return s->name != NULL;
}

struct ksyms *ksyms_parse(FILE *f, const char *what)
{
	struct ksym_sortable *tmp = NULL, *grown;
	struct ksyms *ks = calloc(1, sizeof(*ks));
	size_t nr = 0, cap = 0, i, bad = 0;
	struct line_reader r;
	bool all_zero = true;
	char *line;
	int more;

	line_reader_init(&r, f, what, "a kallsyms listing", KSYMS_MAX_LINE, KSYMS_MAX_BYTES);
	if (!ks)
		goto nomem;
	while ((more = line_reader_next(&r)) > 0) {
		line = r.line;
		if (nr == cap) {
			cap = cap ? cap * 2 : 4096;
			grown = realloc(tmp, cap * sizeof(*tmp));
			if (!grown)
				goto nomem;
			tmp = grown;
		}
		if (!parse_line(line, &tmp[nr].sym)) {
			bad++;
			continue;
		}
		tmp[nr].seq = nr;
		if (tmp[nr].sym.addr)
			all_zero = false;
		nr++;
	}
	line_reader_free(&r);
	if (more < 0)
		goto fail; /* said by line_reader_next() */
	if (bad)
		p_debug("%s: skipped %zu malformed line(s)", what, bad);
	/* File order breaks ties (seq): a listing in address order is in its final order. */
	if (!sorted_by_addr(tmp, nr))
		qsort(tmp, nr, sizeof(*tmp), cmp_addr);
	ks->syms = calloc(nr ? nr : 1, sizeof(*ks->syms));
	ks->path = strdup(what);
	if (!ks->syms || !ks->path)
		goto nomem;
	for (i = 0; i < nr; i++)
		ks->syms[i] = tmp[i].sym;
	ks->nr = nr;
	free(tmp);
	tmp = NULL;
	if (index_names(ks))
		goto nomem;
	ks->restricted = nr && all_zero;
	return ks;
nomem:
	p_err("%s: out of memory reading symbols", what);
fail:
	for (i = 0; tmp && i < nr; i++) {
		free(tmp[i].sym.name);
		free(tmp[i].sym.module);
	}
	free(tmp);
	line_reader_free(&r);
	ksyms_free(ks);
	return NULL;
}

struct ksyms *ksyms_load(const char *path)
{
	struct ksyms *ks;
	FILE *f;

	if (!path)
		path = "/proc/kallsyms";
	f = fopen(path, "r");
	if (!f) {
		p_err("cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	ks = ksyms_parse(f, path);
	fclose(f);
	if (ks && !ks->nr) {
		p_err("%s: no symbols", path);
		ksyms_free(ks);
		return NULL;
	}
	return ks;
}

void ksyms_free(struct ksyms *ks)
{
	size_t i;

	if (!ks)
		return;
	for (i = 0; ks->syms && i < ks->nr; i++) {
		free(ks->syms[i].name);
		free(ks->syms[i].module);
	}
	free(ks->syms);
	free(ks->by_name);
	free(ks->path);
	free(ks);
}

static bool module_matches(const struct ksym *s, const char *module)
{
	if (module && !strcmp(module, "*"))
		return true;
	if (!module || !strcmp(module, "vmlinux"))
		return !s->module;
	return s->module && !strcmp(s->module, module);
}

size_t ksyms_find_all(const struct ksyms *ks, const char *name, const char *module,
		      const struct ksym **out, size_t max)
{
	size_t at, n = 0;
	const struct ksym *s;

	if (!ks->by_name)
		return 0;
	for (at = name_hash(name) & ks->name_mask; ks->by_name[at]; at = (at + 1) & ks->name_mask) {
		s = &ks->syms[ks->by_name[at] - 1];
		if (strcmp(s->name, name) || !module_matches(s, module))
			continue;
		if (n < max)
			out[n] = s;
		n++;
	}
	return n < max ? n : max;
}

const struct ksym *ksyms_find(const struct ksyms *ks, const char *name, const char *module)
{
	const struct ksym *s = NULL;

	return ksyms_find_all(ks, name, module, &s, 1) ? s : NULL;
}

uint64_t ksyms_addr(const struct ksyms *ks, const char *name)
{
	const struct ksym *s = ksyms_find(ks, name, NULL);

	return s ? s->addr : 0;
}

static bool same_module(const struct ksym *a, const struct ksym *b)
{
	if (!a->module || !b->module)
		return a->module == b->module;
	return !strcmp(a->module, b->module);
}

uint64_t ksyms_size(const struct ksyms *ks, const struct ksym *sym)
{
	size_t i;

	for (i = (size_t)(sym - ks->syms) + 1; i < ks->nr; i++) {
		if (ks->syms[i].addr == sym->addr)
			continue;
		/* Skip other modules' symbols interleaved by address. */
		if (!same_module(&ks->syms[i], sym))
			continue;
		return ks->syms[i].addr - sym->addr;
	}
	return 0;
}

const struct ksym *ksyms_at(const struct ksyms *ks, uint64_t addr, uint64_t *offset, uint64_t *size)
{
	size_t lo = 0, hi = ks->nr, mid;
	const struct ksym *s;
	uint64_t sz;

	/* The first index with an address above @addr. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &ks->syms[lo - 1];
	while (s > ks->syms && s[-1].addr == s->addr)
		s--;
	sz = ksyms_size(ks, s);
	if (sz && addr - s->addr >= sz)
		return NULL;
	if (offset)
		*offset = addr - s->addr;
	if (size)
		*size = sz;
	return s;
}

size_t ksyms_aliases(const struct ksyms *ks, const struct ksym *sym, const struct ksym **out,
		     size_t max)
{
	const struct ksym *s = sym;
	size_t n = 0;

	while (s > ks->syms && s[-1].addr == sym->addr)
		s--;
	for (; s < ks->syms + ks->nr && s->addr == sym->addr; s++) {
		if (!same_module(s, sym))
			continue;
		if (n < max)
			out[n++] = s;
	}
	return n;
}

bool ksyms_has_module(const struct ksyms *ks, const char *module)
{
	size_t i;

	for (i = 0; i < ks->nr; i++)
		if (ks->syms[i].module && !strcmp(ks->syms[i].module, module))
			return true;
	return false;
}

bool ksyms_module_builtin(const struct ksyms *ks, const char *module)
{
	size_t i, len = strlen(module);
	char path[256];

	if (ksyms_has_module(ks, module))
		return false;
	for (i = 0; i < ks->nr; i++) {
		const struct ksym *s = &ks->syms[i];

		if (!s->module && (s->type == 'T' || s->type == 't') &&
		    !strncmp(s->name, module, len) && s->name[len] == '_')
			return true;
	}
	snprintf(path, sizeof(path), "/sys/module/%s", module);
	if (access(path, F_OK))
		return false;
	snprintf(path, sizeof(path), "/sys/module/%s/initstate", module);
	return access(path, F_OK) != 0;
}
