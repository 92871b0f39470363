// SPDX-License-Identifier: GPL-2.0
/* pprof.c: a pprof profile built message by message, each string and frame stored once */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pprof.h"
#include "lib/gzip.h"
#include "lib/utf8.h"

/*
 * Arrays grow by doubling without a capacity field: an array of n entries has room for the
 * next power of two, so it needs a new block only when n is 0 or a power of two.
 */
static bool grow(struct pprof *pp, void *arrp, size_t n, size_t size)
{
	void **arr = arrp, *p;

	if (n & (n - 1))
		return true;
	p = realloc(*arr, (n ? 2 * n : 1) * size);
	if (!p) {
		pp->oom = true;
		return false;
	}
	*arr = p;
	return true;
}

int pprof_init(struct pprof *pp)
{
	memset(pp, 0, sizeof(*pp));
	pp->msg = malloc(sizeof(*pp->msg));
	if (!pp->msg)
		return -ENOMEM;
	perftools__profiles__profile__init(pp->msg);
	/* The format's rule: string 0 is "". */
	if (!grow(pp, &pp->msg->string_table, 0, sizeof(char *)) ||
	    !(pp->msg->string_table[0] = strdup(""))) {
		pprof_free(pp);
		return -ENOMEM;
	}
	pp->msg->n_string_table = 1;
	return 0;
}

void pprof_free(struct pprof *pp)
{
	/* Every part was malloc()ed, as an unpacked message's are, so protobuf-c frees it all. */
	if (pp->msg)
		perftools__profiles__profile__free_unpacked(pp->msg, NULL);
	counter_map_free(&pp->strings);
	counter_map_free(&pp->ids);
	pp->msg = NULL;
}

int64_t pprof_str(struct pprof *pp, const char *s)
{
	Perftools__Profiles__Profile *m = pp->msg;
	struct counter_map_ent *e;
	char *clean;

	if (!s || !*s)
		return 0;
	clean = utf8_sanitize(s);
	e = clean ? counter_map_get(&pp->strings, clean) : NULL;
	if (!e || e->value || !grow(pp, &m->string_table, m->n_string_table, sizeof(char *))) {
		pp->oom |= !e;
		free(clean);
		return e ? (int64_t)e->value : 0;
	}
	m->string_table[m->n_string_table] = clean;
	e->value = m->n_string_table++;
	return (int64_t)e->value;
}

void pprof_add_type(struct pprof *pp, const char *type, const char *unit)
{
	Perftools__Profiles__Profile *m = pp->msg;
	Perftools__Profiles__ValueType *vt = malloc(sizeof(*vt));

	if (!vt || !grow(pp, &m->sample_type, m->n_sample_type, sizeof(vt))) {
		pp->oom = true;
		free(vt);
		return;
	}
	perftools__profiles__value_type__init(vt);
	vt->type = pprof_str(pp, type);
	vt->unit = pprof_str(pp, unit);
	m->sample_type[m->n_sample_type++] = vt;
}

/* The id stored under @kind + @key, or 0 with *@slot set to where a new id goes. */
static uint64_t id_of(struct pprof *pp, char kind, const char *key, struct counter_map_ent **slot)
{
	char *k;

	*slot = NULL;
	if (asprintf(&k, "%c\x1f%s", kind, key ?: "") < 0) {
		pp->oom = true;
		return 0;
	}
	*slot = counter_map_get(&pp->ids, k);
	free(k);
	if (!*slot)
		pp->oom = true;
	return *slot ? (*slot)->value : 0;
}

uint64_t pprof_mapping(struct pprof *pp, const char *file, const char *build_id)
{
	Perftools__Profiles__Profile *m = pp->msg;
	Perftools__Profiles__Mapping *map;
	struct counter_map_ent *e;
	uint64_t id;
	char *key;

	if (!file)
		return 0;
	if (asprintf(&key, "%s\x1f%s", file, build_id ?: "") < 0) {
		pp->oom = true;
		return 0;
	}
	id = id_of(pp, 'm', key, &e);
	free(key);
	if (id || !e)
		return id;
	map = malloc(sizeof(*map));
	if (!map || !grow(pp, &m->mapping, m->n_mapping, sizeof(map))) {
		pp->oom = true;
		free(map);
		return 0;
	}
	perftools__profiles__mapping__init(map);
	map->id = e->value = m->n_mapping + 1;
	map->filename = pprof_str(pp, file);
	map->build_id = pprof_str(pp, build_id);
	/* Frames arrive named: no tool should try to symbolise addresses. */
	map->has_functions = map->has_filenames = map->has_line_numbers = true;
	map->has_inline_frames = true;
	m->mapping[m->n_mapping++] = map;
	return map->id;
}

static uint64_t function_id(struct pprof *pp, const char *name, const char *file)
{
	Perftools__Profiles__Profile *m = pp->msg;
	Perftools__Profiles__Function *fn;
	struct counter_map_ent *e;
	uint64_t id;
	char *key;

	if (asprintf(&key, "%s\x1f%s", name ?: "", file ?: "") < 0) {
		pp->oom = true;
		return 0;
	}
	id = id_of(pp, 'f', key, &e);
	free(key);
	if (id || !e)
		return id;
	fn = malloc(sizeof(*fn));
	if (!fn || !grow(pp, &m->function, m->n_function, sizeof(fn))) {
		pp->oom = true;
		free(fn);
		return 0;
	}
	perftools__profiles__function__init(fn);
	fn->id = e->value = m->n_function + 1;
	fn->name = fn->system_name = pprof_str(pp, name ?: "[unknown]");
	fn->filename = pprof_str(pp, file);
	m->function[m->n_function++] = fn;
	return fn->id;
}

uint64_t pprof_location(struct pprof *pp, const char *key, uint64_t mapping,
			const struct pprof_line *lines, size_t nr_lines)
{
	Perftools__Profiles__Profile *m = pp->msg;
	Perftools__Profiles__Location *loc;
	struct counter_map_ent *e;
	uint64_t id = id_of(pp, 'l', key, &e);
	size_t i;

	if (id || !e)
		return id;
	loc = calloc(1, sizeof(*loc));
	if (!loc || !grow(pp, &m->location, m->n_location, sizeof(loc))) {
		pp->oom = true;
		free(loc);
		return 0;
	}
	perftools__profiles__location__init(loc);
	loc->id = e->value = m->n_location + 1;
	loc->mapping_id = mapping;
	m->location[m->n_location++] = loc;
	loc->line = calloc(nr_lines ?: 1, sizeof(*loc->line));
	if (!loc->line) {
		pp->oom = true;
		return loc->id;
	}
	for (i = 0; i < nr_lines; i++) {
		Perftools__Profiles__Line *l = malloc(sizeof(*l));

		if (!l) {
			pp->oom = true;
			break;
		}
		perftools__profiles__line__init(l);
		l->function_id = function_id(pp, lines[i].function, lines[i].file);
		l->line = lines[i].line;
		loc->line[loc->n_line++] = l;
	}
	return loc->id;
}

static Perftools__Profiles__Label *new_label(struct pprof *pp, const struct pprof_label *pl)
{
	Perftools__Profiles__Label *l = malloc(sizeof(*l));

	if (!l) {
		pp->oom = true;
		return NULL;
	}
	perftools__profiles__label__init(l);
	l->key = pprof_str(pp, pl->key);
	if (pl->str) {
		l->str = pprof_str(pp, pl->str);
	} else {
		l->num = pl->num;
		l->num_unit = pprof_str(pp, pl->unit);
	}
	return l;
}

void pprof_add_sample(struct pprof *pp, const uint64_t *locs, size_t nr_locs, const int64_t *values,
		      const struct pprof_label *labels, size_t nr_labels)
{
	Perftools__Profiles__Profile *m = pp->msg;
	Perftools__Profiles__Sample *s = malloc(sizeof(*s));
	size_t i, nv = m->n_sample_type;

	if (!s || !grow(pp, &m->sample, m->n_sample, sizeof(s))) {
		pp->oom = true;
		free(s);
		return;
	}
	perftools__profiles__sample__init(s);
	m->sample[m->n_sample++] = s;
	s->location_id = malloc((nr_locs ?: 1) * sizeof(*s->location_id));
	s->value = malloc((nv ?: 1) * sizeof(*s->value));
	s->label = calloc(nr_labels ?: 1, sizeof(*s->label));
	if (!s->location_id || !s->value || !s->label) {
		pp->oom = true;
		return;
	}
	memcpy(s->location_id, locs, nr_locs * sizeof(*locs));
	s->n_location_id = nr_locs;
	memcpy(s->value, values, nv * sizeof(*values));
	s->n_value = nv;
	for (i = 0; i < nr_labels; i++) {
		Perftools__Profiles__Label *l = new_label(pp, &labels[i]);

		if (!l)
			return;
		s->label[s->n_label++] = l;
	}
}

void pprof_add_comment(struct pprof *pp, const char *text)
{
	Perftools__Profiles__Profile *m = pp->msg;
	int64_t idx = pprof_str(pp, text);

	if (!grow(pp, &m->comment, m->n_comment, sizeof(*m->comment)))
		return;
	m->comment[m->n_comment++] = idx;
}

int pprof_pack_gzip(struct pprof *pp, void **out, size_t *len)
{
	uint8_t *raw;
	size_t n;
	int err;

	if (pp->oom)
		return -ENOMEM;
	n = perftools__profiles__profile__get_packed_size(pp->msg);
	raw = malloc(n ?: 1);
	if (!raw)
		return -ENOMEM;
	perftools__profiles__profile__pack(pp->msg, raw);
	err = gzip_compress(raw, n, GZIP_SMALL, out, len);
	free(raw);
	return err;
}
