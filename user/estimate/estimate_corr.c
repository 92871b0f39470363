// SPDX-License-Identifier: GPL-2.0
/* estimate_corr.c: the mix and neighbour corrections stored in a cost model, by mix digest */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_corr.h"
#include "lib/hist.h"

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return h;
}

uint64_t est_corr_digest(const struct est_family_result *fr, const struct est_cache *cache)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char buf[96];
	int b;

	h = fnv(h, est_family(fr->family)->name);
	snprintf(buf, sizeof(buf), "|%.6g,%.6g,%.6g|", cache->w[0], cache->w[1], cache->w[2]);
	h = fnv(h, buf);
	h = fnv(h, fr->today_impl ? fr->today_impl : "?");
	for (b = 0; b < CP_NBUCKETS; b++) {
		if (!(fr->bucket_calls[b] > 0))
			continue;
		/* 9 digits: the same profile always prints the same, rounding noise never shows. */
		snprintf(buf, sizeof(buf), "|%d:%.9g:%.9g", b, fr->bucket_calls[b],
			 fr->bucket_bytes[b]);
		h = fnv(h, buf);
	}
	return h;
}

void est_corr_digest_str(uint64_t d, char *buf, size_t len)
{
	snprintf(buf, len, "%016llx", (unsigned long long)d);
}

static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void put(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, num(v));
}

static void put_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

static json_object *sample_to_json(const struct est_mix_sample *q)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "lo", json_object_new_uint64(q->lo));
	json_object_object_add(o, "hi", json_object_new_uint64(q->hi));
	json_object_object_add(o, "t", json_object_new_uint64(q->t));
	put(o, "shuffled_ns", q->shuffled_ns);
	put(o, "sorted_ns", q->sorted_ns);
	put(o, "predicted_ns", q->predicted_ns);
	put(o, "penalty_ns", q->penalty_ns);
	return o;
}

static const char *const spans[] = { "below", "from", "all" };

static json_object *mix_to_json(const struct est_mix *mix)
{
	json_object *o = json_object_new_object(), *a, *s;
	size_t i, k;

	json_object_object_add(o, "applied", json_object_new_boolean(mix->applied));
	if (!mix->applied) {
		put_str(o, "why", mix->why);
		return o;
	}
	json_object_object_add(o, "cutoff", json_object_new_uint64(mix->cutoff));
	json_object_object_add(o, "calls", json_object_new_uint64(mix->calls));
	json_object_object_add(o, "runs", json_object_new_int(mix->runs));
	json_object_object_add(o, "cpu", json_object_new_int(mix->cpu));
	a = json_object_new_array();
	for (k = 0; k <= mix->classes.nr; k++)
		json_object_array_add(a, json_object_new_uint64(mix->classes.edges[k]));
	json_object_object_add(o, "edges", a);
	a = json_object_new_array();
	for (i = 0; i < mix->nr_impls; i++) {
		const struct est_mix_impl *e = &mix->impls[i];
		json_object *x = json_object_new_object(), *cp = json_object_new_array();

		put_str(x, "impl", e->impl);
		put_str(x, "span", spans[e->span]);
		put(x, "shuffled_ns", e->shuffled_ns);
		put(x, "sorted_ns", e->sorted_ns);
		put(x, "predicted_ns", e->predicted_ns);
		put(x, "penalty_ns", e->penalty_ns);
		for (k = 0; k < mix->classes.nr; k++)
			json_object_array_add(cp, num(e->class_penalty_ns[k]));
		json_object_object_add(x, "class_penalty_ns", cp);
		s = json_object_new_array();
		for (k = 0; k < e->nr_samples; k++)
			json_object_array_add(s, sample_to_json(&e->samples[k]));
		json_object_object_add(x, "samples", s);
		json_object_array_add(a, x);
	}
	json_object_object_add(o, "impls", a);
	s = json_object_new_object();
	put_str(s, "impl", mix->split.impl);
	a = json_object_new_array();
	for (k = 1; k < mix->classes.nr; k++) {
		json_object *x = sample_to_json(&mix->split.samples[k]);

		put(x, "split_ns", mix->split.penalty_ns[k]);
		json_object_array_add(a, x);
	}
	json_object_object_add(s, "thresholds", a);
	json_object_object_add(o, "split", s);
	return o;
}

static json_object *nb_to_json(const struct est_family_result *fr)
{
	const struct est_neighbour *nb = &fr->nb;
	json_object *o = json_object_new_object(), *a;
	size_t i;

	json_object_object_add(o, "applied", json_object_new_boolean(nb->applied));
	if (!nb->applied) {
		put_str(o, "why", nb->why);
		return o;
	}
	json_object_object_add(o, "calls", json_object_new_uint64(nb->calls));
	json_object_object_add(o, "runs", json_object_new_int(nb->runs));
	json_object_object_add(o, "cpu", json_object_new_int(nb->cpu));
	put(o, "speed", nb->speed);
	a = json_object_new_array();
	for (i = 0; i < nb->nr_rows && i < fr->nr_rows; i++) {
		json_object *x = json_object_new_object();

		put_str(x, "policy", fr->rows[i].pol.name);
		put(x, "shuffled_ns", nb->shuffled_ns[i]);
		put(x, "sorted_ns", nb->sorted_ns[i]);
		put(x, "order_ns", nb->order_ns[i]);
		put(x, "residual_ns", nb->residual_ns[i]);
		json_object_array_add(a, x);
	}
	json_object_object_add(o, "rows", a);
	return o;
}

json_object *est_corr_to_json(const struct est_family_result *fr, const struct est_cache *cache,
			      uint64_t digest)
{
	json_object *o = json_object_new_object();
	char d[24];

	est_corr_digest_str(digest, d, sizeof(d));
	put_str(o, "family", est_family(fr->family)->name);
	put_str(o, "cache", cache->label);
	put_str(o, "digest", d);
	put_str(o, "today", fr->today_impl);
	put(o, "calls", fr->calls);
	json_object_object_add(o, "mix", mix_to_json(&fr->mix));
	json_object_object_add(o, "neighbour", nb_to_json(fr));
	return o;
}

static const char *get_str(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : NULL;
}

static double get_num(json_object *o, const char *k)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

static json_object *get_arr(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_array)
		       ? v
		       : NULL;
}

static bool entry_is(json_object *e, const char *family, const char *digest)
{
	const char *f = get_str(e, "family"), *d = get_str(e, "digest");

	return f && d && !strcmp(f, family) && !strcmp(d, digest);
}

json_object *est_corr_find(const struct costmodel *m, enum est_family f, uint64_t digest)
{
	char d[24];
	size_t i;

	if (!m->corrections)
		return NULL;
	est_corr_digest_str(digest, d, sizeof(d));
	for (i = 0; i < json_object_array_length(m->corrections); i++) {
		json_object *e = json_object_array_get_idx(m->corrections, i);

		if (json_object_is_type(e, json_type_object) && entry_is(e, est_family(f)->name, d))
			return e;
	}
	return NULL;
}

int est_corr_store(struct costmodel *m, json_object *entry)
{
	const char *f = get_str(entry, "family"), *d = get_str(entry, "digest");
	size_t i;

	if (!m->corrections) {
		m->corrections = json_object_new_array();
		if (!m->corrections)
			return -ENOMEM;
	}
	for (i = 0; f && d && i < json_object_array_length(m->corrections); i++) {
		if (entry_is(json_object_array_get_idx(m->corrections, i), f, d))
			return json_object_array_put_idx(m->corrections, i, entry) ? -ENOMEM : 0;
	}
	return json_object_array_add(m->corrections, entry) ? -ENOMEM : 0;
}

static void sample_from_json(json_object *o, struct est_mix_sample *q)
{
	q->lo = (uint64_t)fmax(0, get_num(o, "lo"));
	q->hi = (uint64_t)fmax(0, get_num(o, "hi"));
	q->t = (uint64_t)fmax(0, get_num(o, "t"));
	q->shuffled_ns = get_num(o, "shuffled_ns");
	q->sorted_ns = get_num(o, "sorted_ns");
	q->predicted_ns = get_num(o, "predicted_ns");
	q->penalty_ns = get_num(o, "penalty_ns");
	if (!isfinite(q->penalty_ns))
		q->penalty_ns = 0;
}

static int span_of(const char *s)
{
	int i;

	for (i = 0; s && i < 3; i++)
		if (!strcmp(s, spans[i]))
			return i;
	return -1;
}

/* Reads one stored replica; false if it does not fit the classes. */
static bool impl_from_json(json_object *x, size_t nk, struct est_mix_impl *e)
{
	json_object *cp = get_arr(x, "class_penalty_ns"), *s = get_arr(x, "samples");
	int span = span_of(get_str(x, "span"));
	size_t k;

	memset(e, 0, sizeof(*e));
	e->impl = get_str(x, "impl");
	if (!e->impl || span < 0 || !cp || json_object_array_length(cp) != nk || !s ||
	    json_object_array_length(s) > EST_MIX_MAX_CLASSES)
		return false;
	e->span = (enum est_mix_span)span;
	e->shuffled_ns = get_num(x, "shuffled_ns");
	e->sorted_ns = get_num(x, "sorted_ns");
	e->predicted_ns = get_num(x, "predicted_ns");
	e->penalty_ns = get_num(x, "penalty_ns");
	if (!isfinite(e->penalty_ns))
		return false;
	for (k = 0; k < nk; k++) {
		json_object *v = json_object_array_get_idx(cp, k);

		e->class_penalty_ns[k] = v ? json_object_get_double(v) : 0;
	}
	e->nr_samples = json_object_array_length(s);
	for (k = 0; k < e->nr_samples; k++)
		sample_from_json(json_object_array_get_idx(s, k), &e->samples[k]);
	return true;
}

void est_corr_mix(json_object *entry, const struct est_family_result *fr, struct est_mix *mix)
{
	json_object *o, *edges, *impls, *split, *th;
	size_t i, k;

	if (!json_object_object_get_ex(entry, "mix", &o) ||
	    !json_object_is_type(o, json_type_object)) {
		est_mix_skip(mix, "the stored entry has no mix correction");
		return;
	}
	if (!json_object_get_boolean(json_object_object_get(o, "applied"))) {
		est_mix_skip(mix, get_str(o, "why") ?: "not measured");
		return;
	}
	est_mix_skip(mix, "");
	/* The classes come from the profile (the digest says it is the one measured). */
	est_mix_choose_classes(mix, fr->bucket_calls);
	edges = get_arr(o, "edges");
	impls = get_arr(o, "impls");
	if (!edges || !impls || json_object_array_length(edges) != mix->classes.nr + 1 ||
	    json_object_array_length(impls) > EST_MIX_MAX_IMPLS) {
		est_mix_skip(mix, "the stored mix correction does not fit this profile's classes");
		return;
	}
	for (k = 0; k <= mix->classes.nr; k++)
		if ((uint64_t)json_object_get_uint64(json_object_array_get_idx(edges, k)) !=
		    mix->classes.edges[k]) {
			est_mix_skip(mix, "the stored mix correction has other size classes");
			return;
		}
	mix->nr_impls = json_object_array_length(impls);
	for (i = 0; i < mix->nr_impls; i++)
		if (!impl_from_json(json_object_array_get_idx(impls, i), mix->classes.nr,
				    &mix->impls[i])) {
			est_mix_skip(mix, "the stored mix correction is malformed");
			return;
		}
	mix->calls = (size_t)fmax(0, get_num(o, "calls"));
	mix->runs = (int)get_num(o, "runs");
	mix->cpu = (int)get_num(o, "cpu");
	if (json_object_object_get_ex(o, "split", &split)) {
		mix->split.impl = get_str(split, "impl");
		th = get_arr(split, "thresholds");
		for (k = 1; th && k < mix->classes.nr && k - 1 < json_object_array_length(th);
		     k++) {
			json_object *x = json_object_array_get_idx(th, k - 1);
			double sp = get_num(x, "split_ns");

			sample_from_json(x, &mix->split.samples[k]);
			mix->split.penalty_ns[k] = isfinite(sp) ? sp : 0;
		}
	}
	mix->applied = true;
	mix->why[0] = '\0';
}

int est_corr_neighbour(json_object *entry, const struct est_family_result *fr,
		       struct est_neighbour *nb)
{
	json_object *o, *rows;
	size_t i, j;

	if (!json_object_object_get_ex(entry, "neighbour", &o) ||
	    !json_object_is_type(o, json_type_object)) {
		est_neighbour_skip(nb, "the stored entry has no neighbour correction");
		return 0;
	}
	if (!json_object_get_boolean(json_object_object_get(o, "applied"))) {
		est_neighbour_skip(nb, get_str(o, "why") ?: "not measured");
		return 0;
	}
	rows = get_arr(o, "rows");
	memset(nb, 0, sizeof(*nb));
	nb->nr_rows = fr->nr_rows;
	nb->shuffled_ns = malloc(fr->nr_rows * sizeof(double));
	nb->sorted_ns = malloc(fr->nr_rows * sizeof(double));
	nb->order_ns = malloc(fr->nr_rows * sizeof(double));
	nb->residual_ns = malloc(fr->nr_rows * sizeof(double));
	if (!nb->shuffled_ns || !nb->sorted_ns || !nb->order_ns || !nb->residual_ns) {
		est_neighbour_free(nb);
		return -ENOMEM;
	}
	for (i = 0; i < fr->nr_rows; i++) {
		json_object *hit = NULL;

		for (j = 0; rows && j < json_object_array_length(rows) && !hit; j++) {
			json_object *x = json_object_array_get_idx(rows, j);
			const char *p = get_str(x, "policy");

			if (p && !strcmp(p, fr->rows[i].pol.name))
				hit = x;
		}
		if (!hit && fr->rows[i].pol.kind != EST_ORACLE) {
			est_neighbour_free(nb);
			est_neighbour_skip(nb, "");
			snprintf(nb->why, sizeof(nb->why),
				 "measured for other thresholds (%s was not): give calibrate --mix "
				 "the same --thresholds",
				 fr->rows[i].pol.name);
			return 0;
		}
		nb->shuffled_ns[i] = hit ? get_num(hit, "shuffled_ns") : NAN;
		nb->sorted_ns[i] = hit ? get_num(hit, "sorted_ns") : NAN;
		nb->order_ns[i] = hit ? get_num(hit, "order_ns") : NAN;
		nb->residual_ns[i] = hit ? get_num(hit, "residual_ns") : NAN;
	}
	nb->applied = true;
	nb->calls = (size_t)fmax(0, get_num(o, "calls"));
	nb->runs = (int)get_num(o, "runs");
	nb->cpu = (int)get_num(o, "cpu");
	nb->speed = get_num(o, "speed");
	return 0;
}
