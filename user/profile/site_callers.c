// SPDX-License-Identifier: GPL-2.0
/* site_callers.c: return addresses of entry-site callers to FUNC+OFF in vmlinux or a module */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "site_callers.h"

static void name_one(struct profile_caller *c, const struct ksyms *ks)
{
	const struct ksym *sym = c->address ? ksyms_at(ks, c->address - 1, &c->offset, NULL) : NULL;

	if (sym) {
		c->offset += 1;
		c->symbol = strdup(sym->name);
		c->target = strdup(sym->module ?: "vmlinux");
	} else {
		/* Unreadable stack (address 0) or no kernel symbol: still counted, as unknown. */
		c->offset = 0;
		c->symbol = strdup("[unknown]");
		c->target = strdup("[unknown]");
	}
}

static bool same_place(const struct profile_caller *a, const struct profile_caller *b)
{
	return a->symbol && b->symbol && !strcmp(a->symbol, b->symbol) && a->target && b->target &&
	       !strcmp(a->target, b->target) && a->offset == b->offset;
}

/* Unknown callers all become one "[unknown]": fold duplicates into the first. */
/* @to's buckets plus @from's, made whole before @to changes. 0 or -ENOMEM. */
static int add_buckets(struct profile_caller *to, const struct profile_caller *from)
{
	struct sparse_hist sum = { 0 };
	const struct hist_bucket *e;

	if (sparse_hist_copy(&sum, &to->buckets))
		return -ENOMEM;
	sparse_hist_for_each (&from->buckets, e) {
		if (sparse_hist_add(&sum, e->b, e->count, e->bytes)) {
			sparse_hist_free(&sum);
			return -ENOMEM;
		}
	}
	sparse_hist_free(&to->buckets);
	to->buckets = sum;
	return 0;
}

static void fold(struct profile_site *s)
{
	size_t i, j, n = 0;

	for (i = 0; i < s->nr_callers; i++) {
		struct profile_caller *c = &s->callers[i];

		for (j = 0; j < n && !same_place(&s->callers[j], c); j++)
			;
		/* Out of memory, the two stay apart: their sums are still right. */
		if (j == n || add_buckets(&s->callers[j], c)) {
			s->callers[n++] = *c;
			continue;
		}
		s->callers[j].calls += c->calls;
		s->callers[j].bytes += c->bytes;
		free(c->symbol);
		free(c->target);
		sparse_hist_free(&c->buckets);
	}
	s->nr_callers = n;
}

void site_callers_name(struct profile *p, const struct ksyms *ks)
{
	size_t i, j;

	for (i = 0; i < p->nr_sites; i++) {
		struct profile_site *s = &p->sites[i];

		for (j = 0; j < s->nr_callers; j++)
			if (!s->callers[j].symbol)
				name_one(&s->callers[j], ks);
		fold(s);
		profile_site_sort_callers(s);
	}
}
