// SPDX-License-Identifier: GPL-2.0
/* profile_footprint.c: a site's footprint from its sampled addresses, merged, as JSON */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/jsonr.h"
#include "lib/log.h"
#include "profile_footprint.h"

#define LINE_SHIFT 6
#define PAGE_SHIFT 12

struct edge {
	uint64_t at;
	int step; /* +1: a call's range starts at @at; -1: one ended just before */
};

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->step - y->step;
}

static int cmp_call(const void *a, const void *b)
{
	const struct footprint_call *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/*
 * The distinct units (1 << @shift bytes) the calls' ranges on side @side cover, and those only
 * one call covers, by a sweep over the ranges' ends. @e has room for 2 * @n edges.
 */
static void cover(const struct footprint_call *c, size_t n, int side, unsigned int shift,
		  struct edge *e, uint64_t *units, uint64_t *once, uint64_t *lo, uint64_t *hi)
{
	size_t i, ne = 0;
	uint64_t prev = 0;
	int depth = 0;

	*units = *once = 0;
	for (i = 0; i < n; i++) {
		uint64_t a = side == FOOTPRINT_DST ? c[i].dst : c[i].src;

		if (!c[i].len || a + c[i].len < a)
			continue;
		e[ne++] = (struct edge){ a >> shift, 1 };
		e[ne++] = (struct edge){ ((a + c[i].len - 1) >> shift) + 1, -1 };
	}
	qsort(e, ne, sizeof(*e), cmp_edge);
	for (i = 0; i < ne; i++) {
		if (depth >= 1)
			*units += e[i].at - prev;
		if (depth == 1)
			*once += e[i].at - prev;
		depth += e[i].step;
		prev = e[i].at;
	}
	*lo = ne ? e[0].at : 0;
	*hi = ne ? e[ne - 1].at : 0;
}

void site_footprint_compute(struct site_footprint *f, struct footprint_call *calls, size_t n,
			    uint32_t every, bool has_dst, bool has_src)
{
	struct edge *e = calloc(2 * n + 1, sizeof(*e));
	uint64_t once, lo, hi;
	int s;

	memset(f, 0, sizeof(*f));
	f->recorded = true;
	f->every = every;
	f->samples = (uint32_t)n;
	if (!e || !n) {
		free(e);
		return;
	}
	qsort(calls, n, sizeof(*calls), cmp_call);
	f->window_ns = calls[n - 1].ns - calls[0].ns;
	f->known[FOOTPRINT_DST] = has_dst;
	f->known[FOOTPRINT_SRC] = has_src;
	for (s = 0; s < FOOTPRINT_SIDES; s++) {
		struct footprint_side *d = &f->side[s];
		uint64_t fresh;

		if (!f->known[s])
			continue;
		cover(calls, n, s, PAGE_SHIFT, e, &d->pages, &once, &lo, &hi);
		cover(calls, n, s, LINE_SHIFT, e, &d->lines, &d->lines_once, &lo, &hi);
		d->span = (hi - lo) << LINE_SHIFT;
		fresh = d->lines_once * every;
		d->bytes = (d->lines - d->lines_once + fresh) << LINE_SHIFT;
		if (d->bytes > d->span)
			d->bytes = d->span;
	}
	free(e);
}

void site_footprint_merge(struct site_footprint *into, const struct site_footprint *from)
{
	int s;

	if (!from->recorded)
		return;
	if (!into->recorded || from->samples > into->samples) {
		into->every = from->every;
		into->samples = from->samples;
		into->window_ns = from->window_ns;
	}
	into->recorded = true;
	for (s = 0; s < FOOTPRINT_SIDES; s++) {
		if (!from->known[s] ||
		    (into->known[s] && into->side[s].bytes >= from->side[s].bytes))
			continue;
		into->known[s] = true;
		into->side[s] = from->side[s];
	}
}

uint64_t site_footprint_bytes(const struct site_footprint *f)
{
	uint64_t d = f->known[FOOTPRINT_DST] ? f->side[FOOTPRINT_DST].bytes : 0;
	uint64_t s = f->known[FOOTPRINT_SRC] ? f->side[FOOTPRINT_SRC].bytes : 0;

	if (!f->recorded || f->samples < FOOTPRINT_MIN_SAMPLES)
		return 0;
	return d > s ? d : s;
}

static const char *const side_name[FOOTPRINT_SIDES] = { "dst", "src" };

json_object *site_footprint_to_json(const struct site_footprint *f)
{
	json_object *o = json_object_new_object();
	int s;

	json_object_object_add(o, "every", json_object_new_uint64(f->every));
	json_object_object_add(o, "samples", json_object_new_uint64(f->samples));
	json_object_object_add(o, "window_calls",
			       json_object_new_uint64((uint64_t)f->every * f->samples));
	json_object_object_add(o, "window_ns", json_object_new_uint64(f->window_ns));
	for (s = 0; s < FOOTPRINT_SIDES; s++) {
		const struct footprint_side *d = &f->side[s];
		json_object *x;

		if (!f->known[s])
			continue;
		x = json_object_new_object();
		json_object_object_add(x, "bytes", json_object_new_uint64(d->bytes));
		json_object_object_add(x, "lines", json_object_new_uint64(d->lines));
		json_object_object_add(x, "lines_once", json_object_new_uint64(d->lines_once));
		json_object_object_add(x, "pages", json_object_new_uint64(d->pages));
		json_object_object_add(x, "span", json_object_new_uint64(d->span));
		json_object_object_add(o, side_name[s], x);
	}
	return o;
}

int site_footprint_from_json(json_object *o, struct site_footprint *f, const char *name,
			     uint32_t site)
{
	uint64_t v;
	int s;

	memset(f, 0, sizeof(*f));
	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object) || jsonr_u64(o, "every", &v) || !v ||
	    v > UINT32_MAX) {
		p_err("%s: site %u: \"footprint\" must be an object with \"every\" >= 1", name,
		      site);
		return -EINVAL;
	}
	f->every = (uint32_t)v;
	f->samples = (uint32_t)(jsonr_u64_or(o, "samples", 0) > UINT32_MAX
					? UINT32_MAX
					: jsonr_u64_or(o, "samples", 0));
	f->window_ns = jsonr_u64_or(o, "window_ns", 0);
	f->recorded = true;
	for (s = 0; s < FOOTPRINT_SIDES; s++) {
		struct footprint_side *d = &f->side[s];
		json_object *x;

		if (!json_object_object_get_ex(o, side_name[s], &x))
			continue;
		if (!json_object_is_type(x, json_type_object) || jsonr_u64(x, "bytes", &d->bytes)) {
			p_err("%s: site %u: footprint \"%s\" must be an object with \"bytes\"",
			      name, site, side_name[s]);
			return -EINVAL;
		}
		d->lines = jsonr_u64_or(x, "lines", 0);
		d->lines_once = jsonr_u64_or(x, "lines_once", 0);
		d->pages = jsonr_u64_or(x, "pages", 0);
		d->span = jsonr_u64_or(x, "span", 0);
		f->known[s] = true;
	}
	return 0;
}
