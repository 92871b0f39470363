// SPDX-License-Identifier: GPL-2.0
/* counter_map.c: string-keyed counters with linear probing (FNV-1a hash) */
#include <stdlib.h>
#include <string.h>
#include "counter_map.h"

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 0x100000001b3ULL;
	return h;
}

static struct counter_map_ent *slot(struct counter_map_ent *ents, size_t cap, const char *key)
{
	size_t i = (size_t)(hash(key) & (cap - 1));

	while (ents[i].key && strcmp(ents[i].key, key))
		i = (i + 1) & (cap - 1);
	return &ents[i];
}

static int grow(struct counter_map *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64, i;
	struct counter_map_ent *n = calloc(cap, sizeof(*n));

	if (!n)
		return -1;
	for (i = 0; i < t->cap; i++)
		if (t->ents[i].key)
			*slot(n, cap, t->ents[i].key) = t->ents[i];
	free(t->ents);
	t->ents = n;
	t->cap = cap;
	return 0;
}

struct counter_map_ent *counter_map_find(const struct counter_map *t, const char *key)
{
	struct counter_map_ent *e;

	if (!t->cap)
		return NULL;
	e = slot(t->ents, t->cap, key);
	return e->key ? e : NULL;
}

struct counter_map_ent *counter_map_get(struct counter_map *t, const char *key)
{
	struct counter_map_ent *e;

	if ((t->nr + 1) * 2 > t->cap && grow(t))
		return NULL;
	e = slot(t->ents, t->cap, key);
	if (!e->key) {
		e->key = strdup(key);
		if (!e->key)
			return NULL;
		e->value = 0;
		t->nr++;
	}
	return e;
}

void counter_map_free(struct counter_map *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->ents[i].key);
	free(t->ents);
	memset(t, 0, sizeof(*t));
}
