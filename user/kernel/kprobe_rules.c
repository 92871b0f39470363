// SPDX-License-Identifier: GPL-2.0
/* kprobe_rules.c: read available_filter_functions and the kprobe blacklist once, ask often */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kprobe_rules.h"
#include "lib/line_reader.h"

struct bl_range {
	uint64_t start, end;
};

struct kprobe_rules {
	char **traceable; /* sorted; NULL: the file could not be read */
	size_t nr_traceable;
	char **bl_names; /* sorted; NULL: the blacklist could not be read */
	size_t nr_bl_names;
	struct bl_range *bl_ranges;
	size_t nr_bl_ranges;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool push(void **v, size_t *nr, size_t *cap, size_t size, const void *item)
{
	void *grown;

	if (*nr == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		grown = realloc(*v, *cap * size);
		if (!grown)
			return false;
		*v = grown;
	}
	memcpy((char *)*v + *nr * size, item, size);
	(*nr)++;
	return true;
}

/* The first word of @s ("name" of "name [module]"), malloc'ed. */
static char *first_word(const char *s)
{
	return strndup(s, strcspn(s, " \t\n"));
}

/* @path, or the first of the kernel's lists that opens; *@opened says which. */
static FILE *open_filter_functions(const char *path, const char **opened)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/available_filter_functions",
		"/sys/kernel/debug/tracing/available_filter_functions",
	};
	FILE *f = NULL;
	size_t i;

	*opened = path;
	if (path)
		return fopen(path, "r");
	for (i = 0; !f && i < sizeof(paths) / sizeof(paths[0]); i++)
		f = fopen(*opened = paths[i], "r");
	return f;
}

/*
 * The kernel's lists: a function (and its module) a line; available_filter_functions has some
 * 80,000 lines, a few MiB (docs/cli.md#input-limits).
 */
#define KPROBE_RULES_MAX_LINE 4096
#define KPROBE_RULES_MAX_BYTES (256ULL << 20)

/*
 * Every line's first word, sorted. False when out of memory or over the limits (said why; the
 * file was readable).
 */
static bool read_names(FILE *f, const char *path, char ***out, size_t *nr)
{
	struct line_reader r;
	size_t cap = 0;
	bool ok = true;
	char *name;
	int more = 0;

	*out = NULL;
	*nr = 0;
	line_reader_init(&r, f, path, "a list of traceable functions", KPROBE_RULES_MAX_LINE,
			 KPROBE_RULES_MAX_BYTES);
	while (ok && (more = line_reader_next(&r)) > 0) {
		name = first_word(r.line);
		ok = name && push((void **)out, nr, &cap, sizeof(name), &name);
		if (!ok)
			free(name);
	}
	line_reader_free(&r);
	ok = ok && more == 0;
	if (ok && !*out)
		ok = (*out = malloc(sizeof(char *))) != NULL; /* readable but empty: not NULL */
	if (ok)
		qsort(*out, *nr, sizeof(char *), cmp_str);
	return ok;
}

/* "0xSTART-0xEND\tNAME [MODULE]" lines. */
static bool read_blacklist(FILE *f, const char *path, struct kprobe_rules *r)
{
	unsigned long long start, end;
	struct bl_range range;
	size_t cap_names = 0, cap_ranges = 0;
	char *line, *tab, *name;
	bool ok = (r->bl_names = malloc(sizeof(char *))) != NULL;
	struct line_reader lr;
	int more = 0;

	line_reader_init(&lr, f, path, "a kprobe blacklist", KPROBE_RULES_MAX_LINE,
			 KPROBE_RULES_MAX_BYTES);
	while (ok && (more = line_reader_next(&lr)) > 0) {
		line = lr.line;
		if (sscanf(line, "0x%llx-0x%llx", &start, &end) == 2 && start < end) {
			range = (struct bl_range){ start, end };
			ok = push((void **)&r->bl_ranges, &r->nr_bl_ranges, &cap_ranges,
				  sizeof(range), &range);
		}
		tab = strpbrk(line, " \t");
		if (!ok || !tab)
			continue;
		name = first_word(tab + strspn(tab, " \t"));
		ok = name &&
		     push((void **)&r->bl_names, &r->nr_bl_names, &cap_names, sizeof(name), &name);
		if (!ok)
			free(name);
	}
	line_reader_free(&lr);
	ok = ok && more == 0;
	if (ok)
		qsort(r->bl_names, r->nr_bl_names, sizeof(char *), cmp_str);
	return ok;
}

struct kprobe_rules *kprobe_rules_load(const char *filter_functions, const char *blacklist)
{
	struct kprobe_rules *r = calloc(1, sizeof(*r));
	const char *path;
	bool ok = r != NULL;
	FILE *f;

	if (ok && (f = open_filter_functions(filter_functions, &path))) {
		ok = read_names(f, path, &r->traceable, &r->nr_traceable);
		fclose(f);
	}
	path = blacklist ?: "/sys/kernel/debug/kprobes/blacklist";
	if (ok && (f = fopen(path, "r"))) {
		ok = read_blacklist(f, path, r);
		fclose(f);
	}
	if (!ok) {
		kprobe_rules_free(r);
		return NULL;
	}
	return r;
}

static void free_names(char **v, size_t nr)
{
	while (nr)
		free(v[--nr]);
	free(v);
}

void kprobe_rules_free(struct kprobe_rules *r)
{
	if (!r)
		return;
	free_names(r->traceable, r->nr_traceable);
	free_names(r->bl_names, r->nr_bl_names);
	free(r->bl_ranges);
	free(r);
}

static bool has_name(char *const *v, size_t nr, const char *name)
{
	return bsearch(&name, v, nr, sizeof(char *), cmp_str) != NULL;
}

enum tristate kprobe_rules_traceable(const struct kprobe_rules *r, const char *func)
{
	if (!r->traceable)
		return TS_UNKNOWN;
	return has_name(r->traceable, r->nr_traceable, func) ? TS_YES : TS_NO;
}

enum tristate kprobe_rules_blacklisted(const struct kprobe_rules *r, const char *func,
				       uint64_t addr)
{
	size_t i;

	if (!r->bl_names)
		return TS_UNKNOWN;
	if (has_name(r->bl_names, r->nr_bl_names, func))
		return TS_YES;
	for (i = 0; addr && i < r->nr_bl_ranges; i++)
		if (r->bl_ranges[i].start <= addr && addr < r->bl_ranges[i].end)
			return TS_YES;
	return TS_NO;
}
