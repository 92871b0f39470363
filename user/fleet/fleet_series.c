// SPDX-License-Identifier: GPL-2.0
/* fleet_series.c: Prometheus's answers per site: shape, values and buckets checked, then filled */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fleet_series.h"
#include "lib/log.h"

static const char *const label_names[FLEET_NR_LABELS] = { "cpu_model", "kernel", "target",
							  "symbol",    "offset", "mechanism",
							  "label",     "family" };
static const char *const kind_name[] = { OM_FAMILY_CALLS, OM_FAMILY_BYTES };

static const char *label(json_object *metric, const char *name)
{
	json_object *v;

	return json_object_object_get_ex(metric, name, &v) ? json_object_get_string(v) : NULL;
}

/* The site's labels joined, an absent one apart from an empty one: the index's key. */
static char *site_key(json_object *metric)
{
	size_t n = 1, k;
	char *key, *p;

	for (k = 0; k < FLEET_NR_LABELS; k++)
		n += strlen(label(metric, label_names[k]) ?: "") + 2;
	key = malloc(n);
	if (!key)
		return NULL;
	for (k = 0, p = key; k < FLEET_NR_LABELS; k++) {
		const char *v = label(metric, label_names[k]);

		p += sprintf(p, "%s%c", v ? v : "", v ? '\x1f' : '\x1e');
	}
	return key;
}

/* The site's labels as JSON (control characters escaped), for messages. */
static char *describe(json_object *metric)
{
	json_object *o = json_object_new_object();
	char *s = NULL;
	size_t k;

	for (k = 0; o && k < FLEET_NR_LABELS; k++) {
		const char *v = label(metric, label_names[k]);

		if (v)
			json_object_object_add(o, label_names[k], json_object_new_string(v));
	}
	if (o)
		s = strdup(json_object_to_json_string_ext(
			o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return s;
}

/* The site of @metric: found through the index, or added. NULL on no memory. */
static struct fleet_site *site_of(struct fleet_series *fs, json_object *metric)
{
	char *key = site_key(metric);
	struct counter_map_ent *e = key ? counter_map_get(&fs->index, key) : NULL;
	struct fleet_site *s;
	size_t k;

	free(key);
	if (!e)
		return NULL;
	if (e->value)
		return &fs->v[e->value - 1];
	if (fs->nr == fs->cap) {
		size_t cap = fs->cap ? 2 * fs->cap : 64;

		s = realloc(fs->v, cap * sizeof(*s));
		if (!s)
			return NULL;
		fs->v = s;
		fs->cap = cap;
	}
	s = &fs->v[fs->nr];
	memset(s, 0, sizeof(*s));
	for (k = 0; k < FLEET_NR_LABELS; k++) {
		const char *v = label(metric, label_names[k]);

		if (v && !(s->labels[k] = strdup(v)))
			return NULL;
	}
	if (!(s->where = describe(metric)))
		return NULL;
	e->value = ++fs->nr;
	return s;
}

static int refuse(json_object *metric, enum fleet_kind k, const char *fmt, const char *what)
{
	char why[256];

	snprintf(why, sizeof(why), fmt, what);
	p_err("Prometheus's %s series %s: %s", kind_name[k],
	      json_object_to_json_string_ext(metric, JSON_C_TO_STRING_PLAIN |
							     JSON_C_TO_STRING_NOSLASHESCAPE),
	      why);
	return -EINVAL;
}

/* A sample value: all of @s a number, finite, >= 0 and below FLEET_MAX_VALUE. */
static const char *number(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return "a value is empty";
	*v = strtod(s, &end);
	if (*end)
		return "a value is not a number";
	if (!isfinite(*v))
		return "a value is not finite (NaN or Inf: a division by zero or a broken "
		       "recording rule?)";
	if (*v < 0)
		return "a value is negative (counts only grow)";
	if (*v >= FLEET_MAX_VALUE)
		return "a value is 2^63 or more, beyond what a profile counts (narrow --range or "
		       "--selector)";
	return NULL;
}

/* le="4095.0" -> the range whose upper bound is 4096; "+Inf" -> the last; -1: not ours. */
static int le_index(const char *le)
{
	char *end;
	double v;
	size_t i;

	if (!strcmp(le, "+Inf"))
		return OM_NR_EDGES;
	v = strtod(le, &end);
	for (i = 0; !*end && i < OM_NR_EDGES; i++)
		if ((double)(om_edges[i] - 1) == v)
			return (int)i;
	return -1;
}

static json_object *second(json_object *pair)
{
	return json_object_array_get_idx(pair, 1);
}

int fleet_series_add_classic(struct fleet_series *fs, json_object *result, enum fleet_kind kind)
{
	size_t i, n = json_object_array_length(result);

	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(result, i), *metric, *value;
		const char *le, *why;
		struct fleet_site *s;
		uint64_t *has;
		double v;
		int k;

		json_object_object_get_ex(e, "metric", &metric);
		if (!json_object_object_get_ex(e, "value", &value))
			return refuse(metric, kind, "%s",
				      "a native histogram where classic "
				      "buckets were asked for");
		if (!label(metric, "cpu_model")) {
			p_err("a series without cpu_model (%s): estimate needs each host's CPU "
			      "model to pick its cost model; is a relabelling rule dropping it, or "
			      "is this not copyprof agent's?",
			      json_object_to_json_string_ext(
				      metric,
				      JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
			return -EINVAL;
		}
		le = label(metric, "le");
		if (!le)
			return refuse(metric, kind, "%s", "a bucket without le");
		k = le_index(le);
		if (k < 0)
			return refuse(metric, kind,
				      "le=\"%s\" is not one of copyprof's bounds (docs/export.md): "
				      "another exporter's histogram of this name?",
				      le);
		why = number(json_object_get_string(second(value)), &v);
		if (why)
			return refuse(metric, kind, "%s", why);
		s = site_of(fs, metric);
		if (!s)
			return -ENOMEM;
		has = kind == FLEET_CALLS ? &s->has_calls : &s->has_bytes;
		if (*has & (1ULL << k))
			return refuse(metric, kind, "le=\"%s\" is there twice", le);
		*has |= 1ULL << k;
		(kind == FLEET_CALLS ? s->calls : s->bytes)[k] = v;
	}
	return 0;
}

/* A native bucket's place: 0 the zero bucket, i for (2^(i-1), 2^i]; -1 when not schema 0's. */
static int native_index(double lower, double upper)
{
	int exp;

	if (lower >= -0.5 && upper <= 0.5 && lower <= upper)
		return 0;
	if (frexp(upper, &exp) != 0.5 || exp < 2 || exp > FLEET_NR_NATIVE - 1 || lower != upper / 2)
		return -1;
	return exp - 1; /* upper = 2^(exp-1) */
}

static const char *add_native_buckets(json_object *buckets, double *into)
{
	size_t i, n = json_object_array_length(buckets);

	for (i = 0; i < n; i++) {
		json_object *b = json_object_array_get_idx(buckets, i);
		double lower, upper, count;
		const char *why;
		int k;

		if (!json_object_is_type(b, json_type_array) || json_object_array_length(b) != 4 ||
		    !json_object_is_type(json_object_array_get_idx(b, 0), json_type_int))
			return "a bucket is not [rule, \"lower\", \"upper\", \"count\"]";
		why = number(json_object_get_string(json_object_array_get_idx(b, 3)), &count);
		if (why)
			return why;
		lower = strtod(json_object_get_string(json_object_array_get_idx(b, 1)) ?: "x",
			       NULL);
		upper = strtod(json_object_get_string(json_object_array_get_idx(b, 2)) ?: "x",
			       NULL);
		k = native_index(lower, upper);
		if (k < 0)
			return "a bucket is not one of copyprof's (powers of two, schema 0)";
		if (into[k])
			return "a bucket is there twice";
		into[k] = count;
	}
	return NULL;
}

const char *fleet_native_parse(json_object *h, double counts[FLEET_NR_NATIVE])
{
	json_object *c = NULL, *buckets = NULL;
	double count, total = 0;
	const char *why;
	size_t k;

	memset(counts, 0, FLEET_NR_NATIVE * sizeof(*counts));
	if (!json_object_is_type(h, json_type_object))
		return "a histogram is not an object";
	json_object_object_get_ex(h, "count", &c);
	why = number(json_object_get_string(c), &count);
	if (why)
		return why;
	if (json_object_object_get_ex(h, "buckets", &buckets)) {
		if (!json_object_is_type(buckets, json_type_array))
			return "\"buckets\" is not an array";
		why = add_native_buckets(buckets, counts);
		if (why)
			return why;
	}
	for (k = 0; k < FLEET_NR_NATIVE; k++)
		total += counts[k];
	if (fabs(total - count) > 1e-6 * count + 0.5)
		return "its buckets do not add up to its count";
	return NULL;
}

int fleet_series_add_native(struct fleet_series *fs, json_object *metric, enum fleet_kind kind,
			    const double counts[FLEET_NR_NATIVE])
{
	struct fleet_site *s;
	double *into;
	size_t k;

	if (!label(metric, "cpu_model")) {
		p_err("a series without cpu_model (%s): estimate needs each host's CPU model to "
		      "pick its cost model; is a relabelling rule dropping it?",
		      json_object_to_json_string_ext(
			      metric, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		return -EINVAL;
	}
	s = site_of(fs, metric);
	if (!s)
		return -ENOMEM;
	into = kind == FLEET_CALLS ? s->ncalls : s->nbytes;
	for (k = 0; k < FLEET_NR_NATIVE; k++) {
		into[k] += counts[k];
		if (into[k] >= FLEET_MAX_VALUE)
			return refuse(
				metric, kind, "%s",
				"the hosts' sum is 2^63 or more, beyond what a profile counts "
				"(narrow --range or --selector)");
	}
	*(kind == FLEET_CALLS ? &s->native_calls : &s->native_bytes) = true;
	return 0;
}

/* Bounds of classic range k: [lo, hi] (hi UINT64_MAX for the last), for messages and means. */
static void classic_range(size_t k, uint64_t *lo, uint64_t *hi)
{
	*lo = k ? om_edges[k - 1] : 0;
	*hi = k < OM_NR_EDGES ? om_edges[k] - 1 : UINT64_MAX;
}

static void native_range(size_t k, uint64_t *lo, uint64_t *hi)
{
	*lo = k ? 1ULL << (k - 1) : 0;
	*hi = k ? (k < 64 ? (1ULL << k) - 1 : UINT64_MAX) : 0;
}

static void le_text(size_t k, char *buf, size_t len)
{
	if (k == OM_NR_EDGES)
		snprintf(buf, len, "+Inf");
	else
		om_format_le(buf, len, om_edges[k] - 1);
}

/* Calls and bytes of lengths lo..hi, from a site's classic histograms. */
struct classic_range {
	uint64_t lo, hi;
	double calls, bytes;
	bool merged; /* reaches down across bounds neither histogram lists */
};

/* a >= b but for the rounding of floats. */
static bool not_below(double a, double b)
{
	return a >= b - (1e-9 * fabs(b) + 1e-6);
}

/* +Inf there, and the bounds there never decreasing (a bound left out is no fault). */
static int check_cumulative(const struct fleet_site *s, enum fleet_kind kind)
{
	const double *v = kind == FLEET_CALLS ? s->calls : s->bytes;
	uint64_t has = kind == FLEET_CALLS ? s->has_calls : s->has_bytes;
	char a[32], b[32];
	size_t k, prev;

	if (!(has & (1ULL << OM_NR_EDGES))) {
		p_err("Prometheus's %s series of %s: no le=\"+Inf\" bucket (dropped by a "
		      "relabelling rule?): the total is not known",
		      kind_name[kind], s->where);
		return -EINVAL;
	}
	for (prev = 0; !(has & (1ULL << prev)); prev++)
		;
	for (k = prev + 1; k < FLEET_NR_RANGES; k++) {
		if (!(has & (1ULL << k)))
			continue;
		if (!not_below(v[k], v[prev])) {
			le_text(k, b, sizeof(b));
			le_text(prev, a, sizeof(a));
			p_err("Prometheus's %s series of %s decrease: le=\"%s\" is %.17g, below "
			      "le=\"%s\" at %.17g (buckets are cumulative)",
			      kind_name[kind], s->where, b, v[k], a, v[prev]);
			return -EINVAL;
		}
		prev = k;
	}
	return 0;
}

/*
 * A site's classic histograms as ranges of lengths, one per bound either of them lists (the
 * calls' or the bytes' twin): a bound one leaves out takes its value at the nearest bound it
 * lists below, 0 below its first (docs/fleet.md#gaps). A range reaches down to the bound
 * listed before it (@merged when that skips bounds), the first one only to its own lower
 * edge: nothing is below a histogram's first bound. Sparse exports leave out only bounds
 * that nothing crosses, so their ranges with calls are single ones, exact. Returns how many.
 */
static size_t classic_ranges(const struct fleet_site *s, struct classic_range *out)
{
	uint64_t listed = s->has_calls | s->has_bytes;
	double calls = 0, bytes = 0, calls_below = 0, bytes_below = 0;
	size_t k, n = 0;
	int prev = -1;

	for (k = 0; k < FLEET_NR_RANGES; k++) {
		struct classic_range *r = &out[n];
		uint64_t unused;

		if (s->has_calls & (1ULL << k))
			calls = s->calls[k];
		if (s->has_bytes & (1ULL << k))
			bytes = s->bytes[k];
		if (!(listed & (1ULL << k)))
			continue;
		classic_range(prev < 0 ? k : (size_t)prev + 1, &r->lo, &unused);
		classic_range(k, &unused, &r->hi);
		/* Bounds above the agent's last (OM_LIVE_NR_EDGES) are no gap: none lists them. */
		r->merged =
			prev >= 0 && (size_t)prev + 1 < k && (size_t)prev + 1 < OM_LIVE_NR_EDGES;
		/* Cumulative values may wobble by a float's rounding: never below 0. */
		r->calls = calls > calls_below ? calls - calls_below : 0;
		r->bytes = bytes > bytes_below ? bytes - bytes_below : 0;
		calls_below = calls > calls_below ? calls : calls_below;
		bytes_below = bytes > bytes_below ? bytes : bytes_below;
		prev = (int)k;
		n++;
	}
	return n;
}

/* Each range's bytes are those of its calls' lengths: none without calls, mean inside. */
static int check_mean(const struct fleet_site *s, double c, double b, uint64_t lo, uint64_t hi)
{
	if (c <= 0.5 && b > (double)hi * (c + 1)) {
		p_err("Prometheus's series of %s: %.17g bytes in lengths %llu..%llu where there "
		      "are no calls (a bound with calls left out of the calls histogram, or the "
		      "bytes histogram another site's?)",
		      s->where, b, (unsigned long long)lo, (unsigned long long)hi);
		return -EINVAL;
	}
	if (c > 0.5 && (b < 0.99 * (double)lo * c - 1 ||
			(hi != UINT64_MAX && b > 1.01 * (double)hi * c + 1))) {
		p_err("Prometheus's series of %s: %.17g calls of %llu..%llu bytes copied %.17g "
		      "bytes, a mean of %.6g outside their lengths (a bound with calls left out of "
		      "one histogram, or the bytes histogram another site's?)",
		      s->where, c, (unsigned long long)lo, (unsigned long long)hi, b, b / c);
		return -EINVAL;
	}
	return 0;
}

/* The ranges' means; @rises set when calls rise across bounds neither histogram lists. */
static int check_classic_means(const struct fleet_site *s, bool *rises)
{
	struct classic_range r[FLEET_NR_RANGES];
	size_t i, n = classic_ranges(s, r);
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		err = check_mean(s, r[i].calls, r[i].bytes, r[i].lo, r[i].hi);
		*rises |= r[i].merged && r[i].calls > 0.5;
	}
	return err;
}

static int check_native_means(const struct fleet_site *s)
{
	uint64_t lo, hi;
	size_t k;
	int err = 0;

	for (k = 0; k < FLEET_NR_NATIVE && !err; k++) {
		native_range(k, &lo, &hi);
		err = check_mean(s, s->ncalls[k], s->nbytes[k], lo, hi);
	}
	return err;
}

/* All of a site's calls (or bytes): the classic +Inf and the native buckets. */
static double total(const struct fleet_site *s, enum fleet_kind kind)
{
	const double *n = kind == FLEET_CALLS ? s->ncalls : s->nbytes;
	double t = (kind == FLEET_CALLS ? s->calls : s->bytes)[OM_NR_EDGES];
	size_t k;

	for (k = 0; k < FLEET_NR_NATIVE; k++)
		t += n[k];
	return t;
}

int fleet_series_check(const struct fleet_series *fs)
{
	size_t i, merged = 0, first = 0;
	int err = 0;

	for (i = 0; i < fs->nr && !err; i++) {
		const struct fleet_site *s = &fs->v[i];
		bool rises = false;

		if (!s->has_calls != !s->has_bytes || s->native_calls != s->native_bytes) {
			bool calls = s->has_calls ? !s->has_bytes : s->native_calls;

			p_err("Prometheus has %s series for %s but no %s ones of the same labels: "
			      "both "
			      "are needed (a relabelling rule changed one?)",
			      calls ? OM_FAMILY_CALLS : OM_FAMILY_BYTES, s->where,
			      calls ? OM_FAMILY_BYTES : OM_FAMILY_CALLS);
			return -EINVAL;
		}
		if (s->has_calls) {
			err = check_cumulative(s, FLEET_CALLS);
			if (!err)
				err = check_cumulative(s, FLEET_BYTES);
			if (!err)
				err = check_classic_means(s, &rises);
		}
		if (!err && s->native_calls)
			err = check_native_means(s);
		if (!err && (total(s, FLEET_CALLS) >= FLEET_MAX_VALUE ||
			     total(s, FLEET_BYTES) >= FLEET_MAX_VALUE)) {
			p_err("Prometheus's series of %s: the classic and native histograms "
			      "together "
			      "hold 2^63 calls or bytes or more, beyond what a profile counts "
			      "(narrow "
			      "--range or --selector)",
			      s->where);
			err = -EINVAL;
		}
		if (rises && !merged++)
			first = i;
	}
	if (!err && merged)
		p_warn("%zu site%s (the first: %s) lack%s le bounds across which calls rise, "
		       "which no copyprof exposition leaves out (a relabelling rule dropping "
		       "buckets, or sparse series of other bounds summed by le?): those calls are "
		       "costed at their mean length over the wider range (docs/fleet.md#gaps)",
		       merged, merged == 1 ? "" : "s", fs->v[first].where, merged == 1 ? "s" : "");
	return err;
}

static uint64_t whole(double v)
{
	return v > 0 ? (uint64_t)llround(v) : 0; /* v < FLEET_MAX_VALUE: checked */
}

/* @c calls copying @b bytes, lengths lo..hi: at the copyprof bucket of their mean. */
static void put_range(struct profile_site *ps, double c, double b, uint64_t lo, uint64_t hi)
{
	uint64_t n = whole(c), mean;

	if (!n)
		return;
	mean = whole(b / c);
	mean = mean < lo ? lo : mean > hi ? hi : mean;
	/* Out of memory, the site keeps fewer calls (the fill has no error to give). */
	sparse_hist_add(&ps->buckets, cp_bucket_of(mean), n, whole(b));
}

void fleet_site_fill(const struct fleet_site *s, struct profile_site *ps)
{
	struct classic_range r[FLEET_NR_RANGES];
	size_t k, n = s->has_calls ? classic_ranges(s, r) : 0;
	uint64_t lo, hi;

	for (k = 0; k < n; k++)
		put_range(ps, r[k].calls, r[k].bytes, r[k].lo, r[k].hi);
	for (k = 0; s->native_calls && k < FLEET_NR_NATIVE; k++) {
		native_range(k, &lo, &hi);
		put_range(ps, s->ncalls[k], s->nbytes[k], lo, hi);
	}
	profile_site_sum(ps);
}

void fleet_series_free(struct fleet_series *fs)
{
	size_t i, k;

	for (i = 0; i < fs->nr; i++) {
		for (k = 0; k < FLEET_NR_LABELS; k++)
			free(fs->v[i].labels[k]);
		free(fs->v[i].where);
	}
	free(fs->v);
	counter_map_free(&fs->index);
	memset(fs, 0, sizeof(*fs));
}
