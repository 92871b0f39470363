/* SPDX-License-Identifier: GPL-2.0 */
/* strcount.h: a string-keyed table of counters (open addressing), for stacks and site keys */
#ifndef CP_STRCOUNT_H
#define CP_STRCOUNT_H

#include <stddef.h>
#include <stdint.h>

struct strcount_ent {
	char *key;	/* NULL: empty slot */
	uint64_t value;
};

struct strcount {
	struct strcount_ent *ents;
	size_t cap, nr;
};

/* The entry for @key, created with value 0 if new; NULL on allocation failure. */
struct strcount_ent *strcount_get(struct strcount *t, const char *key);
/* The entry for @key if present, else NULL. */
struct strcount_ent *strcount_find(const struct strcount *t, const char *key);
void strcount_free(struct strcount *t);

#endif
