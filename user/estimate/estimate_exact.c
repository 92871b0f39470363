// SPDX-License-Identifier: GPL-2.0
/* estimate_exact.c: lengths known exactly (a size table's sizes), kept beside the buckets */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_exact.h"
#include "lib/hist.h"

/* Rows held before equal lengths are merged and the fewest calls dropped. */
#define EXACT_HOLD (16 * EST_MAX_EXACT)

static int by_len(const void *a, const void *b)
{
	const struct est_exact *x = a, *y = b;

	return x->len < y->len ? -1 : x->len > y->len;
}

static int by_calls_desc(const void *a, const void *b)
{
	const struct est_exact *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return by_len(a, b);
}

static void merge_equal(struct est_exact_list *l)
{
	size_t i, k = 0;

	qsort(l->v, l->nr, sizeof(*l->v), by_len);
	for (i = 0; i < l->nr; i++) {
		if (k && l->v[k - 1].len == l->v[i].len)
			l->v[k - 1].n += l->v[i].n;
		else
			l->v[k++] = l->v[i];
	}
	l->nr = k;
}

/* Keeps the @keep lengths with the most calls (the rest stay smoothed in their buckets). */
static void keep_top(struct est_exact_list *l, size_t keep)
{
	if (l->nr <= keep)
		return;
	qsort(l->v, l->nr, sizeof(*l->v), by_calls_desc);
	l->nr = keep;
}

int est_exact_add(struct est_exact_list *l, uint64_t len, double n)
{
	if (!(n > 0) || len < CP_EXACT_LIMIT)
		return 0;
	if (l->nr == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct est_exact *v;

		if (l->cap >= EXACT_HOLD) {
			merge_equal(l);
			keep_top(l, EXACT_HOLD / 2);
		} else {
			v = realloc(l->v, cap * sizeof(*v));
			if (!v)
				return -ENOMEM;
			l->v = v;
			l->cap = cap;
		}
	}
	l->v[l->nr++] = (struct est_exact){ .len = len, .n = n };
	return 0;
}

void est_exact_finish(struct est_exact_list *l)
{
	if (!l->nr) /* no rows, and maybe no array: qsort wants one */
		return;
	merge_equal(l);
	keep_top(l, EST_MAX_EXACT);
	qsort(l->v, l->nr, sizeof(*l->v), by_len);
}

void est_exact_list_free(struct est_exact_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
