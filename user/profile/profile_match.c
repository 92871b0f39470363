// SPDX-License-Identifier: GPL-2.0
/* profile_match.c: pair two profiles' sites by target, symbol, offset, label and leaf */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "profile_match.h"

const char *profile_match_kind_name(enum profile_match_kind k)
{
	static const char *const names[] = { "exact", "symbol", "vanished", "appeared" };

	return names[k];
}

static const char *leaf_of(const struct profile_site *s)
{
	return s->sample && s->sample->leaf ? s->sample->leaf : "";
}

static int str_cmp(const char *x, const char *y)
{
	return strcmp(x ?: "", y ?: "");
}

/* (target, symbol, label, leaf): the identity that survives a new build. */
static int cmp_identity(const struct profile_site *x, const struct profile_site *y)
{
	int c = str_cmp(x->target, y->target);

	if (!c)
		c = str_cmp(x->symbol, y->symbol);
	if (!c)
		c = str_cmp(x->label, y->label);
	if (!c)
		c = strcmp(leaf_of(x), leaf_of(y));
	return c;
}

static int cmp_key(const struct profile_site *x, const struct profile_site *y)
{
	int c = cmp_identity(x, y);

	if (!c && x->offset != y->offset)
		c = x->offset < y->offset ? -1 : 1;
	return c;
}

struct keyed {
	const struct profile_site *s;
	size_t idx;
};

static int cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = cmp_key(a->s, b->s);

	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

static struct keyed *sorted_sites(const struct profile *p)
{
	struct keyed *k = calloc(p->nr_sites + 1, sizeof(*k));
	size_t i;

	if (!k)
		return NULL;
	for (i = 0; i < p->nr_sites; i++)
		k[i] = (struct keyed){ &p->sites[i], i };
	qsort(k, p->nr_sites, sizeof(*k), cmp_keyed);
	return k;
}

/* The run of equal keys starting at @i: its length. */
static size_t run_len(const struct keyed *k, size_t n, size_t i)
{
	size_t j = i + 1;

	while (j < n && !cmp_key(k[i].s, k[j].s))
		j++;
	return j - i;
}

static struct profile_match_row *add_row(struct profile_match_row **rows, size_t *nr)
{
	struct profile_match_row *r = realloc(*rows, (*nr + 1) * sizeof(*r));

	if (!r)
		return NULL;
	*rows = r;
	r = &r[(*nr)++];
	memset(r, 0, sizeof(*r));
	return r;
}

static int set_side(struct profile_match_row *r, int side, const struct keyed *k, size_t n)
{
	size_t i;

	r->sites[side] = malloc(n * sizeof(size_t));
	if (!r->sites[side])
		return -ENOMEM;
	for (i = 0; i < n; i++)
		r->sites[side][i] = k[i].idx;
	r->nr[side] = n;
	r->offset[side] = k[0].s->offset;
	r->target = k[0].s->target;
	r->symbol = k[0].s->symbol;
	r->label = k[0].s->label;
	r->leaf = k[0].s->sample ? k[0].s->sample->leaf : NULL;
	return 0;
}

/* One unmatched key run of either side. */
struct pending {
	const struct keyed *k;
	size_t n;
	int side;
};

static int cmp_pending(const void *x, const void *y)
{
	const struct pending *a = x, *b = y;
	int c = cmp_identity(a->k->s, b->k->s);

	if (!c && a->side != b->side)
		c = a->side - b->side;
	if (!c && a->k->s->offset != b->k->s->offset)
		c = a->k->s->offset < b->k->s->offset ? -1 : 1;
	return c;
}

/* Leftover runs of one identity: paired in offset order if both sides have as many. */
static int pair_leftovers(struct pending *p, size_t n, struct profile_match_row **rows, size_t *nr)
{
	size_t i = 0, j, k, nb, na;
	struct profile_match_row *r;

	qsort(p, n, sizeof(*p), cmp_pending);
	while (i < n) {
		for (j = i; j < n && !cmp_identity(p[i].k->s, p[j].k->s); j++)
			;
		for (nb = 0, k = i; k < j; k++)
			nb += p[k].side == 0;
		na = (j - i) - nb;
		for (k = i; k < j; k++) {
			bool paired = nb == na && p[k].side == 0;

			if (nb == na && p[k].side == 1)
				continue; /* taken with its BEFORE partner */
			r = add_row(rows, nr);
			if (!r || set_side(r, p[k].side, p[k].k, p[k].n))
				return -ENOMEM;
			r->kind = p[k].side ? MATCH_APPEARED : MATCH_VANISHED;
			if (paired) {
				const struct pending *q = &p[k + nb];

				if (set_side(r, 1, q->k, q->n))
					return -ENOMEM;
				r->kind = MATCH_SYMBOL;
			}
		}
		i = j;
	}
	return 0;
}

static uint64_t row_offset(const struct profile_match_row *r)
{
	return r->nr[1] ? r->offset[1] : r->offset[0];
}

static int cmp_rows(const void *x, const void *y)
{
	const struct profile_match_row *a = x, *b = y;
	int c = str_cmp(a->target, b->target);

	if (!c)
		c = str_cmp(a->symbol, b->symbol);
	if (!c && row_offset(a) != row_offset(b))
		c = row_offset(a) < row_offset(b) ? -1 : 1;
	if (!c)
		c = str_cmp(a->label, b->label);
	if (!c)
		c = str_cmp(a->leaf, b->leaf);
	return c;
}

int profile_match(const struct profile *a, const struct profile *b, struct profile_match_row **rows,
		  size_t *nr)
{
	struct keyed *ka = sorted_sites(a), *kb = sorted_sites(b);
	struct pending *left = calloc(a->nr_sites + b->nr_sites + 1, sizeof(*left));
	size_t i = 0, j = 0, nl = 0, la, lb;
	int err = -ENOMEM, c;

	*rows = NULL;
	*nr = 0;
	if (!ka || !kb || !left)
		goto out;
	/* Both sorted by key: a merge walk pairs equal keys. */
	while (i < a->nr_sites || j < b->nr_sites) {
		la = i < a->nr_sites ? run_len(ka, a->nr_sites, i) : 0;
		lb = j < b->nr_sites ? run_len(kb, b->nr_sites, j) : 0;
		c = !la ? 1 : !lb ? -1 : cmp_key(ka[i].s, kb[j].s);
		if (!c) {
			struct profile_match_row *r = add_row(rows, nr);

			if (!r || set_side(r, 0, &ka[i], la) || set_side(r, 1, &kb[j], lb))
				goto out;
			r->kind = MATCH_EXACT;
			i += la;
			j += lb;
		} else if (c < 0) {
			left[nl++] = (struct pending){ &ka[i], la, 0 };
			i += la;
		} else {
			left[nl++] = (struct pending){ &kb[j], lb, 1 };
			j += lb;
		}
	}
	err = pair_leftovers(left, nl, rows, nr);
	if (!err && *nr) /* no rows: *rows is NULL, which qsort may not be given */
		qsort(*rows, *nr, sizeof(**rows), cmp_rows);
out:
	if (err) {
		profile_match_free(*rows, *nr);
		*rows = NULL;
		*nr = 0;
	}
	free(ka);
	free(kb);
	free(left);
	return err;
}

void profile_match_free(struct profile_match_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(rows[i].sites[0]);
		free(rows[i].sites[1]);
	}
	free(rows);
}
