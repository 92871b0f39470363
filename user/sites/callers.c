// SPDX-License-Identifier: GPL-2.0
/* callers.c: find a kernel function's direct callers: byte candidates confirmed with Capstone */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "callers.h"
#include "copy_family.h"
#include "lib/log.h"
#include "lib/monotime.h"
#include "lib/reason.h"

#define CHUNK (1u << 20)	 /* text is read and searched a megabyte at a time */
#define LOOKAHEAD 8		 /* a candidate's rel32 may lie past the chunk */
#define MAX_DECODE (1u << 20)	 /* a caller longer than this is not decoded */
#define MAX_MOD_SYM (256u << 10) /* a module's text symbol runs at most this far */

struct addr_vec {
	uint64_t *v;
	size_t nr, cap;
};

static int addr_push(struct addr_vec *a, uint64_t addr)
{
	uint64_t *v;

	if (a->nr == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 256;
		v = realloc(a->v, a->cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		a->v = v;
	}
	a->v[a->nr++] = addr;
	return 0;
}

static int32_t rel32(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			 (uint32_t)p[3] << 24);
}

/*
 * Appends the address of every byte in @b[0, @n) that starts a call/jmp rel32 (e8/e9), a jcc
 * rel32 (0f 8x) or a jmp/jcc rel8 (eb, 7x) aimed at [@lo, @hi]. @len >= @n bytes are readable.
 */
static int find_candidates(const uint8_t *b, size_t n, size_t len, uint64_t addr, uint64_t lo,
			   uint64_t hi, struct addr_vec *out)
{
	uint64_t to;
	size_t i;

	for (i = 0; i < n; i++) {
		if ((b[i] == 0xe8 || b[i] == 0xe9) && i + 5 <= len)
			to = addr + i + 5 + (uint64_t)(int64_t)rel32(b + i + 1);
		else if (b[i] == 0x0f && i + 6 <= len && (b[i + 1] & 0xf0) == 0x80)
			to = addr + i + 6 + (uint64_t)(int64_t)rel32(b + i + 2);
		else if ((b[i] == 0xeb || (b[i] & 0xf0) == 0x70) && i + 2 <= len)
			to = addr + i + 2 + (uint64_t)(int64_t)(int8_t)b[i + 1];
		else
			continue;
		if (to >= lo && to <= hi && addr_push(out, addr + i))
			return -ENOMEM;
	}
	return 0;
}

/* Searches text [@start, @end) a chunk at a time; unreadable chunks are counted, not fatal. */
static int search_range(struct kimage *ki, uint64_t start, uint64_t end, uint64_t lo, uint64_t hi,
			struct addr_vec *out, size_t *unread)
{
	uint8_t *buf = malloc(CHUNK + LOOKAHEAD);
	size_t n, len;
	uint64_t at;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (at = start; at < end && !err; at += n) {
		n = end - at < CHUNK ? end - at : CHUNK;
		len = end - at < n + LOOKAHEAD ? end - at : n + LOOKAHEAD;
		/* Near the end of a region the lookahead may be unmapped: then read the chunk only. */
		if (kimage_read(ki, at, buf, len) &&
		    (len == n || kimage_read(ki, at, buf, len = n))) {
			*unread += n;
			continue;
		}
		err = find_candidates(buf, n, len, at, lo, hi, out);
	}
	free(buf);
	return err;
}

static bool is_text(const struct ksym *s)
{
	return s->type == 't' || s->type == 'T' || s->type == 'w' || s->type == 'W';
}

/* Every loaded module's text, as runs of adjacent function symbols (only live text has it). */
static int search_modules(const struct ksyms *ks, struct kimage *ki, uint64_t lo, uint64_t hi,
			  struct addr_vec *out, size_t *unread)
{
	uint64_t start = 0, end = 0, size;
	size_t i;
	int err = 0;

	for (i = 0; i < ks->nr && !err; i++) {
		const struct ksym *s = &ks->syms[i];

		if (!s->module || !is_text(s))
			continue;
		size = ksyms_size(ks, s);
		if (!size || size > MAX_MOD_SYM)
			size = MAX_MOD_SYM;
		if (s->addr > end) {
			if (end)
				err = search_range(ki, start, end, lo, hi, out, unread);
			start = s->addr;
		}
		if (s->addr + size > end)
			end = s->addr + size;
	}
	if (end && !err)
		err = search_range(ki, start, end, lo, hi, out, unread);
	return err;
}

/* A linker marker rather than a function: _text, _stext, __noinstr_text_start ... */
static bool is_marker(const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(name, "_text") || !strcmp(name, "_stext") || !strcmp(name, "_etext"))
		return true;
	return !strncmp(name, "__", 2) && ((n > 6 && !strcmp(name + n - 6, "_start")) ||
					   (n > 4 && !strcmp(name + n - 4, "_end")));
}

/* @fn's first name that is not a marker sharing its address (kallsyms lists those first). */
static const struct ksym *function_name(const struct ksyms *ks, const struct ksym *fn)
{
	const struct ksym *al[16];
	size_t n = ksyms_aliases(ks, fn, al, 16), i;

	for (i = 0; i < n; i++)
		if (!is_marker(al[i]->name))
			return al[i];
	return fn;
}

static int add_caller(const struct ksyms *ks, struct callers *c, const struct ksym *fn,
		      const struct callsite_list *l, uint64_t last)
{
	struct caller *v = realloc(c->v, (c->nr + 1) * sizeof(*v)), *k;
	size_t i;

	if (!v)
		return -ENOMEM;
	c->v = v;
	k = &v[c->nr];
	fn = function_name(ks, fn);
	*k = (struct caller){ .function = strdup(fn->name),
			      .addr = fn->addr,
			      .module = fn->module ? strdup(fn->module) : NULL,
			      .sites = calloc(l->nr, sizeof(*k->sites)) };
	if (!k->function || !k->sites || (fn->module && !k->module)) {
		free(k->function);
		free(k->module);
		free(k->sites);
		return -ENOMEM;
	}
	c->nr++;
	for (i = 0; i < l->nr && l->v[i].addr <= last; i++) {
		k->sites[k->nr_sites] = (struct caller_site){ l->v[i].offset, l->v[i].addr };
		snprintf(k->sites[k->nr_sites++].mnemonic, sizeof(k->sites[0].mnemonic), "%s",
			 l->v[i].mnemonic);
	}
	c->nr_sites += k->nr_sites;
	return 0;
}

/*
 * Decodes @fn from its start to @last (its last candidate) and keeps the calls and jumps to
 * @entry that Capstone finds: each is a candidate that is an instruction.
 */
static int confirm_function(const struct ksyms *ks, struct kimage *ki, const struct ksym *fn,
			    uint64_t size, uint64_t last, size_t nr_cands, uint64_t entry,
			    struct callers *c)
{
	struct callsite_opts o = { .only_target = entry };
	struct callsite_list l = { .func_addr = fn->addr };
	struct code_blob b = { .addr = fn->addr };
	uint64_t len = last - fn->addr + 16;	 /* the last candidate's whole instruction */
	uint64_t at_least = last - fn->addr + 6; /* a jcc rel32's, at the end of a region */
	size_t i, found = 0;
	uint8_t *buf;
	int err;

	if (size && len > size)
		len = size;
	if (len > MAX_DECODE || !(buf = malloc(len))) {
		c->not_insns += nr_cands;
		return len > MAX_DECODE ? 0 : -ENOMEM;
	}
	if (kimage_read(ki, fn->addr, buf, len) &&
	    (at_least >= len || kimage_read(ki, fn->addr, buf, len = at_least))) {
		free(buf);
		c->not_insns += nr_cands;
		return 0;
	}
	b.code = buf;
	b.len = len;
	err = callsites_scan(ks, &b, &o, &l);
	free(buf);
	/* Sites past the last candidate belong to no candidate: decoded into a neighbour. */
	for (i = 0; i < l.nr && l.v[i].addr <= last; i++)
		found++;
	if (!err && found)
		err = add_caller(ks, c, fn, &l, last);
	c->not_insns += nr_cands > found ? nr_cands - found : 0;
	for (i = 0; i < l.nr; i++) {
		free(l.v[i].target);
		free(l.v[i].context);
	}
	free(l.v);
	return err;
}

/* Groups the candidates (ascending) by the function that holds them and confirms each group. */
static int confirm(const struct ksyms *ks, struct kimage *ki, const struct addr_vec *cands,
		   uint64_t entry, struct callers *c)
{
	const struct ksym *fn, *next;
	uint64_t size;
	size_t i = 0, j;
	int err = 0;

	while (i < cands->nr && !err) {
		fn = ksyms_at(ks, cands->v[i], NULL, &size);
		if (!fn) {
			c->not_insns++; /* in no function: padding, data */
			i++;
			continue;
		}
		for (j = i + 1; j < cands->nr; j++) {
			next = ksyms_at(ks, cands->v[j], NULL, NULL);
			if (next != fn)
				break;
		}
		err = confirm_function(ks, ki, fn, size, cands->v[j - 1], j - i, entry, c);
		i = j;
	}
	return err;
}

static enum tristate kprobe_ok(const struct ksyms *ks, const struct kprobe_rules *r,
			       const struct caller *k)
{
	uint64_t lo = ksyms_addr(ks, "__noinstr_text_start");
	uint64_t hi = ksyms_addr(ks, "__noinstr_text_end");
	enum tristate tr = kprobe_rules_traceable(r, k->function);
	enum tristate bl = kprobe_rules_blacklisted(r, k->function, k->addr);

	if (!k->module && lo && hi && k->addr >= lo && k->addr < hi)
		return TS_NO;
	if (tr == TS_NO || bl == TS_YES)
		return TS_NO;
	return tr == TS_YES && bl == TS_NO ? TS_YES : TS_UNKNOWN;
}

static int cmp_caller(const void *a, const void *b)
{
	const struct caller *x = a, *y = b;
	/* TS_YES, then TS_UNKNOWN, then TS_NO */
	int rx = x->kprobe == TS_YES ? 0 : x->kprobe == TS_UNKNOWN ? 1 : 2;
	int ry = y->kprobe == TS_YES ? 0 : y->kprobe == TS_UNKNOWN ? 1 : 2;
	int n;

	if (rx != ry)
		return rx - ry;
	if (x->nr_sites != y->nr_sites)
		return x->nr_sites > y->nr_sites ? -1 : 1;
	n = strcmp(x->function, y->function);
	if (n)
		return n;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static bool any_copy_target(const struct ksyms *ks, const struct ksym *sym)
{
	const struct ksym *al[16];
	size_t n = ksyms_aliases(ks, sym, al, 16), i;

	for (i = 0; i < n; i++)
		if (copy_target_lookup(al[i]->name))
			return true;
	return false;
}

static int search(const struct ksyms *ks, struct kimage *ki, const struct ksym *sym,
		  struct callers *c, char **why)
{
	uint64_t start = ksyms_addr(ks, "_stext") ?: ksyms_addr(ks, "_text");
	uint64_t end = ksyms_addr(ks, "_etext"), lo = callsites_padding_start(ks, sym->addr);
	struct addr_vec cands = { 0 };
	double t0 = monotime_s(), t1;
	int err;

	if (!start || end <= start)
		return reason_fail(why, -ENOENT,
				   "%s has no _stext and _etext: the kernel's text "
				   "range is unknown",
				   ks->path);
	err = search_range(ki, start, end, lo, sym->addr, &cands, &c->unread);
	c->live = kimage_live(ki);
	c->modules_searched = c->live;
	if (!err && c->modules_searched)
		err = search_modules(ks, ki, lo, sym->addr, &cands, &c->unread);
	t1 = monotime_s();
	c->candidates = cands.nr;
	if (!err)
		err = confirm(ks, ki, &cands, sym->addr, c);
	p_debug("callers of %s: %zu candidates in %.2f s, %zu sites confirmed in %.2f s", c->symbol,
		cands.nr, t1 - t0, c->nr_sites, monotime_s() - t1);
	free(cands.v);
	if (err)
		return reason_fail(why, err, "out of memory");
	return 0;
}

int callers_find(const struct ksyms *ks, struct kimage *ki, const char *symbol,
		 const struct entry_paths *paths, struct callers *c, char **why)
{
	static const struct entry_paths none;
	const struct ksym *sym;
	struct kprobe_rules *rules;
	size_t i;
	int err;

	*why = NULL;
	*c = (struct callers){ .symbol = strdup(symbol) };
	if (!c->symbol)
		return reason_fail(why, -ENOMEM, "out of memory");
	if (ks->restricted)
		return reason_fail(why, -EPERM, "%s shows only zero addresses (run as root)",
				   ks->path);
	sym = ksyms_find(ks, symbol, "*");
	if (!sym)
		return reason_fail(why, -ENOENT, "%s: not in %s", symbol, ks->path);
	if (!ki)
		return reason_fail(why, -ENOENT,
				   "no kernel text to search (/proc/kcore, or give "
				   "--vmlinux)");
	c->addr = sym->addr;
	c->module = sym->module ? strdup(sym->module) : NULL;
	c->copy_family = any_copy_target(ks, sym);
	c->text_source = kimage_source(ki);
	err = search(ks, ki, sym, c, why);
	if (err)
		return err;
	if (!paths)
		paths = &none;
	rules = kprobe_rules_load(paths->filter_functions, paths->blacklist);
	if (!rules)
		return reason_fail(why, -ENOMEM, "out of memory");
	for (i = 0; i < c->nr; i++) {
		c->v[i].kprobe = kprobe_ok(ks, rules, &c->v[i]);
		c->nr_kprobe += c->v[i].kprobe == TS_YES;
	}
	kprobe_rules_free(rules);
	qsort(c->v, c->nr, sizeof(*c->v), cmp_caller);
	return 0;
}

void callers_free(struct callers *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->v[i].function);
		free(c->v[i].module);
		free(c->v[i].sites);
	}
	free(c->v);
	free(c->symbol);
	free(c->module);
	*c = (struct callers){ 0 };
}
