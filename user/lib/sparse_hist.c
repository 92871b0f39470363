// SPDX-License-Identifier: GPL-2.0
/* sparse_hist.c: a histogram of the buckets a site has: found by bisection, kept in order */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sparse_hist.h"

/* The position of bucket @b in @h, or where it would go. */
static uint32_t position(const struct sparse_hist *h, uint32_t b)
{
	uint32_t lo = 0, hi = h->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (h->v[mid].b < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int sparse_hist_reserve(struct sparse_hist *h, uint32_t n)
{
	struct hist_bucket *v;

	if (n <= h->cap)
		return 0;
	v = realloc(h->v, (size_t)n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	h->v = v;
	h->cap = n;
	return 0;
}

struct hist_bucket *sparse_hist_slot(struct sparse_hist *h, uint32_t b)
{
	uint32_t i = position(h, b);

	if (i < h->nr && h->v[i].b == b)
		return &h->v[i];
	/* Most sites have a few buckets: grow by a few, then double. */
	if (h->nr == h->cap && sparse_hist_reserve(h, h->cap < 4 ? 4 : 2 * h->cap))
		return NULL;
	memmove(&h->v[i + 1], &h->v[i], (h->nr - i) * sizeof(*h->v));
	h->v[i] = (struct hist_bucket){ .b = b };
	h->nr++;
	return &h->v[i];
}

int sparse_hist_add(struct sparse_hist *h, uint32_t b, uint64_t count, uint64_t bytes)
{
	struct hist_bucket *e;

	if (!count && !bytes)
		return 0;
	e = sparse_hist_slot(h, b);
	if (!e)
		return -ENOMEM;
	e->count += count;
	e->bytes += bytes;
	return 0;
}

struct hist_slot sparse_hist_get(const struct sparse_hist *h, uint32_t b)
{
	uint32_t i = position(h, b);

	if (i < h->nr && h->v[i].b == b)
		return (struct hist_slot){ h->v[i].count, h->v[i].bytes };
	return (struct hist_slot){ 0, 0 };
}

void sparse_hist_dense(const struct sparse_hist *h, struct hist_slot *out)
{
	const struct hist_bucket *e;

	memset(out, 0, CP_NBUCKETS * sizeof(*out));
	sparse_hist_for_each (h, e) {
		out[e->b].count = e->count;
		out[e->b].bytes = e->bytes;
	}
}

int sparse_hist_set_dense(struct sparse_hist *h, const struct hist_slot *in)
{
	uint32_t b, n = 0;

	for (b = 0; b < CP_NBUCKETS; b++)
		n += in[b].count || in[b].bytes;
	h->nr = 0;
	if (sparse_hist_reserve(h, n))
		return -ENOMEM;
	for (b = 0; b < CP_NBUCKETS; b++)
		if (in[b].count || in[b].bytes)
			h->v[h->nr++] = (struct hist_bucket){ b, in[b].count, in[b].bytes };
	return 0;
}

int sparse_hist_copy(struct sparse_hist *dst, const struct sparse_hist *src)
{
	dst->nr = 0;
	if (sparse_hist_reserve(dst, src->nr))
		return -ENOMEM;
	if (src->nr)
		memcpy(dst->v, src->v, src->nr * sizeof(*src->v));
	dst->nr = src->nr;
	return 0;
}

uint64_t sparse_hist_calls(const struct sparse_hist *h)
{
	const struct hist_bucket *e;
	uint64_t n = 0;

	sparse_hist_for_each (h, e)
		n += e->count;
	return n;
}

uint64_t sparse_hist_bytes(const struct sparse_hist *h)
{
	const struct hist_bucket *e;
	uint64_t n = 0;

	sparse_hist_for_each (h, e)
		n += e->bytes;
	return n;
}

void sparse_hist_prune(struct sparse_hist *h)
{
	uint32_t i, out = 0;

	for (i = 0; i < h->nr; i++)
		if (h->v[i].count || h->v[i].bytes)
			h->v[out++] = h->v[i];
	h->nr = out;
}

void sparse_hist_clear(struct sparse_hist *h)
{
	h->nr = 0;
}

void sparse_hist_free(struct sparse_hist *h)
{
	free(h->v);
	*h = (struct sparse_hist){ 0 };
}
