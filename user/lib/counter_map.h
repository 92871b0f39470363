/* SPDX-License-Identifier: GPL-2.0 */
/* counter_map.h: a string-keyed table of counters (open addressing), for stacks and site keys */
#ifndef CP_COUNTER_MAP_H
#define CP_COUNTER_MAP_H

#include <stddef.h>
#include <stdint.h>

struct counter_map_ent {
	char *key; /* NULL: empty slot */
	uint64_t value;
};

struct counter_map {
	struct counter_map_ent *ents;
	size_t cap, nr;
};

/* The entry for @key, created with value 0 if new; NULL on allocation failure. */
struct counter_map_ent *counter_map_get(struct counter_map *t, const char *key);
/* The entry for @key if present, else NULL. */
struct counter_map_ent *counter_map_find(const struct counter_map *t, const char *key);
void counter_map_free(struct counter_map *t);

#endif
