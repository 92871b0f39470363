// SPDX-License-Identifier: GPL-2.0
/* sample_ustacks.c: record --user-stacks: a sample's user stack, named once per process and id */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/counter_map.h"
#include "lib/user_syms.h"
#include "sample_ustacks.h"

struct named_ustack {
	size_t nr;
	struct sample_frame frames[SAMPLE_STACK_DEPTH];
	char *names[SAMPLE_STACK_DEPTH]; /* what frames[].sym points at */
};

struct sample_ustacks {
	struct user_syms *syms;
	struct counter_map index; /* "tgid:id" -> position + 1 in stacks */
	struct named_ustack **stacks;
	size_t nr, cap;
};

struct sample_ustacks *sample_ustacks_new(void)
{
	struct sample_ustacks *u = calloc(1, sizeof(*u));

	if (u && !(u->syms = user_syms_new())) {
		free(u);
		return NULL;
	}
	return u;
}

void sample_ustacks_free(struct sample_ustacks *u)
{
	size_t i, k;

	if (!u)
		return;
	for (i = 0; i < u->nr; i++) {
		for (k = 0; k < u->stacks[i]->nr; k++)
			free(u->stacks[i]->names[k]);
		free(u->stacks[i]);
	}
	free(u->stacks);
	counter_map_free(&u->index);
	user_syms_free(u->syms);
	free(u);
}

void sample_ustacks_watch(struct sample_ustacks *u, uint32_t tgid)
{
	user_syms_watch(u->syms, tgid);
}

/*
 * Every frame but the innermost is a return address, and the innermost is the instruction after
 * the system call: the function holding the byte before each one made the call.
 */
static void name_frame(struct sample_ustacks *u, uint32_t tgid, uint64_t ip,
		       struct named_ustack *st, size_t k)
{
	struct user_place pl;
	const char *slash;

	st->frames[k] = (struct sample_frame){ .user = true };
	if (user_syms_name(u->syms, tgid, ip - 1, &pl))
		return; /* "[unknown]" */
	slash = strrchr(pl.path, '/');
	st->frames[k].module = pl.path;
	if (pl.sym) {
		st->names[k] = strdup(pl.sym);
		st->frames[k].off = pl.off + 1;
	} else if (asprintf(&st->names[k], "[%s]", slash ? slash + 1 : pl.path) < 0) {
		st->names[k] = NULL;
	}
	st->frames[k].sym = st->names[k];
}

const struct sample_frame *sample_ustacks_get(struct sample_ustacks *u, struct sample_session *ss,
					      uint32_t tgid, int32_t id, size_t *nr)
{
	uint64_t ips[SAMPLE_STACK_DEPTH];
	struct counter_map_ent *e;
	struct named_ustack *st;
	char key[32];
	int n, k;

	*nr = 0;
	if (id < 0)
		return NULL;
	snprintf(key, sizeof(key), "%u:%d", tgid, id);
	e = counter_map_get(&u->index, key);
	if (!e)
		return NULL;
	if (e->value) {
		st = u->stacks[e->value - 1];
		*nr = st->nr;
		return st->nr ? st->frames : NULL;
	}
	if (u->nr == u->cap) {
		struct named_ustack **s =
			realloc(u->stacks, (u->cap = u->cap ? 2 * u->cap : 64) * sizeof(*s));

		if (!s)
			return NULL;
		u->stacks = s;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	n = sample_session_stack(ss, id, true, ips, SAMPLE_STACK_DEPTH);
	for (k = 0; k < n; k++)
		name_frame(u, tgid, ips[k], st, (size_t)k);
	st->nr = n > 0 ? (size_t)n : 0;
	u->stacks[u->nr++] = st;
	e->value = u->nr;
	*nr = st->nr;
	return st->nr ? st->frames : NULL;
}
