// SPDX-License-Identifier: GPL-2.0
/* kprobe_rules.c: read available_filter_functions and the kprobe blacklist once, ask often */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kprobe_rules.h"

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

static FILE *open_filter_functions(const char *path)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/available_filter_functions",
		"/sys/kernel/debug/tracing/available_filter_functions",
	};
	FILE *f = NULL;
	size_t i;

	if (path)
		return fopen(path, "r");
	for (i = 0; !f && i < sizeof(paths) / sizeof(paths[0]); i++)
		f = fopen(paths[i], "r");
	return f;
}

/* Every line's first word, sorted. False when out of memory (the file was readable). */
static bool read_names(FILE *f, char ***out, size_t *nr)
{
	char *line = NULL, *name;
	size_t cap_line = 0, cap = 0;
	bool ok = true;

	*out = NULL;
	*nr = 0;
	while (ok && getline(&line, &cap_line, f) > 0) {
		name = first_word(line);
		ok = name && push((void **)out, nr, &cap, sizeof(name), &name);
		if (!ok)
			free(name);
	}
	free(line);
	if (ok && !*out)
		ok = (*out = malloc(sizeof(char *))) != NULL; /* readable but empty: not NULL */
	if (ok)
		qsort(*out, *nr, sizeof(char *), cmp_str);
	return ok;
}

/* "0xSTART-0xEND\tNAME [MODULE]" lines. */
static bool read_blacklist(FILE *f, struct kprobe_rules *r)
{
	unsigned long long start, end;
	struct bl_range range;
	size_t cap_line = 0, cap_names = 0, cap_ranges = 0;
	char *line = NULL, *tab, *name;
	bool ok = (r->bl_names = malloc(sizeof(char *))) != NULL;

	while (ok && getline(&line, &cap_line, f) > 0) {
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
	free(line);
	if (ok)
		qsort(r->bl_names, r->nr_bl_names, sizeof(char *), cmp_str);
	return ok;
}

struct kprobe_rules *kprobe_rules_load(const char *filter_functions, const char *blacklist)
{
	struct kprobe_rules *r = calloc(1, sizeof(*r));
	bool ok = r != NULL;
	FILE *f;

	if (ok && (f = open_filter_functions(filter_functions))) {
		ok = read_names(f, &r->traceable, &r->nr_traceable);
		fclose(f);
	}
	if (ok && (f = fopen(blacklist ?: "/sys/kernel/debug/kprobes/blacklist", "r"))) {
		ok = read_blacklist(f, r);
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
