// SPDX-License-Identifier: GPL-2.0
/* preset.c: find and parse preset files: "description", "site", "entry" and "label" lines */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/line_reader.h"
#include "lib/log.h"
#include "preset.h"

#ifndef COPYPROF_DATADIR
#define COPYPROF_DATADIR "/usr/local/share/copyprof"
#endif

/* The folders searched, in order; NULL entries are skipped. */
static int preset_dirs(char dirs[][PATH_MAX], int max)
{
	const char *env = getenv("COPYPROF_PRESETS"), *home = getenv("HOME");
	char exe[PATH_MAX - 16];
	ssize_t n;
	int nr = 0;

	if (env && nr < max)
		snprintf(dirs[nr++], PATH_MAX, "%s", env);
	if (home && nr < max)
		snprintf(dirs[nr++], PATH_MAX, "%s/.config/copyprof/presets", home);
	if (nr < max)
		snprintf(dirs[nr++], PATH_MAX, "%s/presets", COPYPROF_DATADIR);
	/* build/copyprof run from a source tree: ../presets */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0 && nr < max) {
		char *slash;

		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(dirs[nr++], PATH_MAX, "%s/../presets", exe);
		}
	}
	return nr;
}

static int add_item(struct preset *p, enum preset_kind kind, const char *spec, int line)
{
	struct preset_item *items = realloc(p->items, (p->nr_items + 1) * sizeof(*items));

	if (!items)
		return -ENOMEM;
	p->items = items;
	items[p->nr_items++] = (struct preset_item){ kind, strdup(spec), line };
	return 0;
}

static int add_label(struct preset *p, char *val, int line)
{
	char *save = NULL, *func = strtok_r(val, " \t", &save);
	char *var = strtok_r(NULL, " \t", &save), *name = strtok_r(NULL, " \t", &save);
	struct preset_label *v;

	if (!func || !var || !name || strtok_r(NULL, " \t", &save)) {
		p_err("%s:%d: 'label' takes FUNCTION VARIABLE NAME", p->path, line);
		return -EINVAL;
	}
	v = realloc(p->labels, (p->nr_labels + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->labels = v;
	v[p->nr_labels++] = (struct preset_label){ strdup(func), strdup(var), strdup(name) };
	return 0;
}

/*
 * A preset line is at most this long: a spec is a module, a function and a register or two;
 * and a preset at most this large (docs/cli.md#input-limits).
 */
#define PRESET_LINE_MAX 4096
#define PRESET_MAX_BYTES (1UL << 20)

static int parse_line(struct preset *p, char *line, int nr)
{
	char *key, *val, *save = NULL;

	line[strcspn(line, "#\n")] = 0;
	key = strtok_r(line, " \t", &save);
	if (!key)
		return 0;
	val = strtok_r(NULL, "", &save);
	val = val ? val + strspn(val, " \t") : NULL;
	if (val)
		val[strcspn(val, "\r")] = 0;
	if (!val || !*val) {
		p_err("%s:%d: '%s' needs a value", p->path, nr, key);
		return -EINVAL;
	}
	if (!strcmp(key, "description")) {
		free(p->description);
		p->description = strdup(val);
	} else if (!strcmp(key, "site") || !strcmp(key, "entry")) {
		val[strcspn(val, " \t")] = 0;
		if (add_item(p, key[0] == 's' ? PRESET_SITE : PRESET_ENTRY, val, nr))
			return -ENOMEM;
	} else if (!strcmp(key, "label")) {
		if (add_label(p, val, nr))
			return -EINVAL;
	} else {
		p_err("%s:%d: unknown directive '%s' (expected description, site, entry or "
		      "label)",
		      p->path, nr, key);
		return -EINVAL;
	}
	return 0;
}

static int parse_file(FILE *f, struct preset *p)
{
	struct line_reader r;
	int err = 0, more;

	line_reader_init(&r, f, p->path, "a preset", PRESET_LINE_MAX, PRESET_MAX_BYTES);
	while (!err && (more = line_reader_next(&r)) > 0) {
		if (strlen(r.line) != r.len) {
			p_err("%s:%llu: a NUL byte: not a text preset", p->path,
			      (unsigned long long)r.lineno);
			err = -EINVAL;
		} else {
			err = parse_line(p, r.line, (int)r.lineno);
		}
	}
	line_reader_free(&r);
	if (!err && more < 0)
		err = more; /* said by line_reader_next() */
	if (!err && !p->nr_items) {
		p_err("%s: no 'site' or 'entry' lines", p->path);
		err = -EINVAL;
	}
	return err;
}

static char *find_file(const char *name)
{
	char dirs[4][PATH_MAX], *path;
	int i, nr;

	if (strchr(name, '/'))
		return access(name, R_OK) ? NULL : strdup(name);
	nr = preset_dirs(dirs, 4);
	for (i = 0; i < nr; i++) {
		if (asprintf(&path, "%s/%s.preset", dirs[i], name) < 0)
			return NULL;
		if (!access(path, R_OK))
			return path;
		free(path);
	}
	return NULL;
}

static FILE *open_builtin(const char *name)
{
	const struct preset_builtin *b;

	for (b = preset_builtins; b->name; b++)
		if (!strcmp(b->name, name))
			return fmemopen((void *)b->text, strlen(b->text), "r");
	return NULL;
}

int preset_load(const char *name, struct preset **out)
{
	struct preset *p;
	FILE *f;
	int err;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->name = strdup(name);
	p->path = find_file(name);
	if (!p->path && (f = open_builtin(name))) {
		if (asprintf(&p->path, "(built in)/%s.preset", name) < 0)
			p->path = NULL;
		goto parse;
	}
	if (!p->path) {
		p_err("no preset '%s'; the presets found are:", name);
		preset_list();
		preset_free(p);
		return -ENOENT;
	}
	f = fopen(p->path, "r");
	if (!f) {
		err = -errno;
		p_err("cannot read %s: %s", p->path, strerror(errno));
		preset_free(p);
		return err;
	}
parse:
	err = parse_file(f, p);
	fclose(f);
	if (err) {
		preset_free(p);
		return err;
	}
	*out = p;
	return 0;
}

/*
 * Calls @fn with every preset name in the order preset_load() looks: each folder's *.preset
 * files (@where: the folder), then the built-in ones (@where: NULL). A name may come twice.
 */
static void preset_walk(void (*fn)(const char *name, const char *where, void *ctx), void *ctx)
{
	const struct preset_builtin *b;
	char dirs[4][PATH_MAX], name[NAME_MAX + 1];
	int i, nr = preset_dirs(dirs, 4);

	for (i = 0; i < nr; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			size_t len = strlen(e->d_name);

			if (len <= 7 || strcmp(e->d_name + len - 7, ".preset"))
				continue;
			snprintf(name, sizeof(name), "%.*s", (int)(len - 7), e->d_name);
			fn(name, dirs[i], ctx);
		}
		if (d)
			closedir(d);
	}
	for (b = preset_builtins; b->name; b++)
		fn(b->name, NULL, ctx);
}

struct listed_names {
	char names[64][NAME_MAX + 1];
	size_t n;
};

/* Prints each name once, from where preset_load() would take it (earlier folders shadow). */
static void list_one(const char *name, const char *where, void *ctx)
{
	struct listed_names *l = ctx;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->names[i], name))
			return;
	if (l->n < 64)
		snprintf(l->names[l->n++], sizeof(l->names[0]), "%s", name);
	fprintf(stderr, "  %-12s (%s)\n", name, where ?: "built in");
}

void preset_list(void)
{
	static struct listed_names l;

	l.n = 0;
	preset_walk(list_one, &l);
}

void preset_free(struct preset *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr_items; i++)
		free(p->items[i].spec);
	for (i = 0; i < p->nr_labels; i++) {
		free(p->labels[i].function);
		free(p->labels[i].var);
		free(p->labels[i].name);
	}
	free(p->labels);
	free(p->items);
	free(p->name);
	free(p->path);
	free(p->description);
	free(p);
}

struct loaded_presets {
	struct preset **v;
	size_t n;
};

/* Loads each name once (the first found wins, as in preset_load()); a bad one is skipped. */
static void load_one(const char *name, const char *where, void *ctx)
{
	struct loaded_presets *l = ctx;
	struct preset **grown, *p;
	size_t i;

	(void)where;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i]->name, name))
			return;
	if (preset_load(name, &p)) {
		p_warn("preset %s skipped", name);
		return;
	}
	grown = realloc(l->v, (l->n + 1) * sizeof(*grown));
	if (!grown) {
		preset_free(p);
		return;
	}
	grown[l->n++] = p;
	l->v = grown;
}

size_t preset_load_all(struct preset ***out)
{
	struct loaded_presets l = { NULL, 0 };

	preset_walk(load_one, &l);
	*out = l.v;
	return l.n;
}
