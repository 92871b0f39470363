// SPDX-License-Identifier: GPL-2.0
/* user_callers.c: uprobe entry sites' callers: return addresses named FILE:FUNC+OFF */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/log.h"
#include "lib/sparse_hist.h"
#include "lib/user_syms.h"
#include "user_callers.h"

struct collect {
	struct profile *p;
	struct user_syms *syms;
};

/* The caller of @s at (@target, @symbol, @offset), added if new. */
static struct profile_caller *caller_at(struct profile_site *s, const char *target,
					const char *symbol, uint64_t offset)
{
	struct profile_caller *c;
	size_t i;

	for (i = 0; i < s->nr_callers; i++) {
		c = &s->callers[i];
		if (c->offset == offset && c->symbol && !strcmp(c->symbol, symbol) && c->target &&
		    !strcmp(c->target, target))
			return c;
	}
	c = profile_site_add_caller(s);
	if (!c)
		return NULL;
	c->target = strdup(target);
	c->symbol = strdup(symbol);
	c->offset = offset;
	return c->target && c->symbol ? c : NULL;
}

static int add_row(void *ctx, const struct ucaller_key *k, const struct hist_slot *slot)
{
	struct collect *c = ctx;
	struct profile_site *s = &c->p->sites[k->site];
	struct user_place pl = { 0 };
	struct profile_caller *pc;
	const char *target = "[unknown]", *symbol = "[unknown]";
	uint64_t offset = 0;

	/* The call is the instruction before the return address: name the byte before it. */
	if (k->ino && k->off && !user_syms_name_file(c->syms, k->dev, k->ino, k->off - 1, &pl)) {
		target = pl.path;
		symbol = pl.sym ?: "[unknown]";
		offset = pl.off + 1; /* of the return address; without a symbol its link address */
	}
	pc = caller_at(s, target, symbol, offset);
	if (!pc)
		return -ENOMEM;
	if (sparse_hist_add(&pc->buckets, k->bucket, slot->count, slot->bytes))
		return -ENOMEM;
	pc->calls += slot->count;
	pc->bytes += slot->bytes;
	return 0;
}

int user_callers_collect(struct hist_session *hs, struct profile *p, uint32_t nr,
			 const char *const *known, size_t nr_known)
{
	struct collect c = { p, user_syms_new() };
	size_t i;
	int err;

	if (!c.syms) {
		p_err("out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < nr_known; i++)
		user_syms_know_file(c.syms, known[i]);
	err = hist_session_user_callers(hs, nr, add_row, &c);
	if (err)
		p_err("cannot read the uprobe sites' callers: %s", strerror(-err));
	user_syms_free(c.syms);
	return err;
}
