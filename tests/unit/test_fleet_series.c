// SPDX-License-Identifier: GPL-2.0
/* test_fleet_series.c: the text writer's histograms read back by estimate --prometheus's reader */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "export/export_openmetrics.h"
#include "fleet/fleet_series.h"

#define GIB (1ULL << 30)

static void add(struct profile_site *s, uint64_t len, uint64_t calls)
{
	assert_int_equal(sparse_hist_add(&s->buckets, cp_bucket_of(len), calls, calls * len), 0);
}

static struct profile_site *site(struct profile *p, const char *symbol)
{
	struct profile_site *s = profile_add_site(p);

	assert_non_null(s);
	s->id = (uint32_t)(p->nr_sites - 1);
	s->target = strdup("/usr/bin/app");
	s->symbol = strdup(symbol);
	s->mechanism = strdup("uprobe");
	s->family = CF_MEMCPY;
	return s;
}

/*
 * Three sites, every copyprof bucket alone in its range of export's bounds: app_copy as
 * tests/golden/profile-synthetic.json has it (16 B, 1024..1151, 4096); app_small with copies
 * of length 0 (no bytes), 2 and 5 bytes (adjacent ranges) and 20000 (far above them);
 * app_huge with 5000 bytes and 6 GiB (beyond 2^32: in +Inf only).
 */
static struct profile *known_profile(void)
{
	struct profile *p = profile_new();
	struct profile_site *s;

	p->meta.kernel = strdup("6.12.0-test");
	p->meta.cpu_model = strdup("Synthetic CPU");
	p->meta.hostname = strdup("host-a");
	s = site(p, "app_copy");
	add(s, 16, 1000);
	assert_int_equal(sparse_hist_add(&s->buckets, cp_bucket_of(1024), 100, 110000), 0);
	add(s, 4096, 10);
	s = site(p, "app_small");
	add(s, 0, 3);
	add(s, 2, 4);
	add(s, 5, 6);
	add(s, 20000, 2);
	s = site(p, "app_huge");
	add(s, 5000, 7);
	add(s, 6 * GIB, 3);
	for (size_t i = 0; i < p->nr_sites; i++)
		profile_site_sum(&p->sites[i]);
	return p;
}

/* The exposition of @p as the agent's families (the bytes twin too), sparse or dense. */
static char *exposition(const struct profile *p, bool sparse)
{
	struct om_opts o = { .live = true, .sparse = sparse };
	struct om_stats st;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	assert_int_equal(export_openmetrics(p, f, &o, &st), 0);
	fclose(f);
	return out;
}

/* "k=\"v\",...}" into @metric; returns the text after the '}'. */
static const char *parse_labels(const char *s, json_object *metric)
{
	char name[64], value[256];

	while (*s != '}') {
		size_t n = strcspn(s, "="), k = 0;

		assert_true(n < sizeof(name) && s[n] == '=' && s[n + 1] == '"');
		memcpy(name, s, n);
		name[n] = 0;
		for (s += n + 2; *s != '"'; s++) {
			if (*s == '\\')
				s++;
			assert_true(*s && k + 1 < sizeof(value));
			value[k++] = *s;
		}
		value[k] = 0;
		json_object_object_add(metric, name, json_object_new_string(value));
		s += 1 + (s[1] == ',');
	}
	return s + 1;
}

/*
 * The _bucket samples of @family in @text as a Prometheus query answer's result: elements
 * {"metric": {labels, le}, "value": [0, "count"]}, as a query summed by the labels gives them.
 * Without @skip_le, every one; else all but those of that le of the site @skip_symbol.
 */
static json_object *as_answer(const char *text, const char *family, const char *skip_symbol,
			      const char *skip_le)
{
	json_object *result = json_object_new_array();
	char prefix[96];
	const char *line;

	snprintf(prefix, sizeof(prefix), "%s_bucket{", family);
	for (line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		json_object *e, *metric, *value, *v;
		const char *rest;

		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		metric = json_object_new_object();
		rest = parse_labels(line + strlen(prefix), metric);
		if (skip_le && json_object_object_get_ex(metric, "symbol", &v) &&
		    !strcmp(json_object_get_string(v), skip_symbol) &&
		    json_object_object_get_ex(metric, "le", &v) &&
		    !strcmp(json_object_get_string(v), skip_le)) {
			json_object_put(metric);
			continue;
		}
		assert_true(*rest == ' ');
		value = json_object_new_array();
		json_object_array_add(value, json_object_new_int(0));
		json_object_array_add(
			value, json_object_new_string_len(rest + 1, (int)strcspn(rest + 1, "\n")));
		e = json_object_new_object();
		json_object_object_add(e, "metric", metric);
		json_object_object_add(e, "value", value);
		json_object_array_add(result, e);
	}
	return result;
}

/*
 * The text's calls and bytes answers into @fs, then checked; le @skip_le of the site
 * @skip_symbol left out of the calls, the bytes or both. @nr_calls: the calls' samples.
 */
static int read_back(const char *text, struct fleet_series *fs, const char *skip_symbol,
		     const char *skip_le, bool skip_calls, bool skip_bytes, size_t *nr_calls)
{
	json_object *calls =
		as_answer(text, OM_FAMILY_CALLS, skip_symbol, skip_calls ? skip_le : NULL);
	json_object *bytes =
		as_answer(text, OM_FAMILY_BYTES, skip_symbol, skip_bytes ? skip_le : NULL);
	int err;

	memset(fs, 0, sizeof(*fs));
	*nr_calls = json_object_array_length(calls);
	err = fleet_series_add_classic(fs, calls, FLEET_CALLS);
	if (!err)
		err = fleet_series_add_classic(fs, bytes, FLEET_BYTES);
	json_object_put(calls);
	json_object_put(bytes);
	return err ? err : fleet_series_check(fs);
}

/* Every site read back has exactly its source's buckets, calls and bytes. */
static void assert_same_buckets(const struct fleet_series *fs, const struct profile *p)
{
	size_t i, k, found = 0;

	assert_int_equal(fs->nr, p->nr_sites);
	for (i = 0; i < fs->nr; i++) {
		struct profile_site got = { 0 };
		const struct profile_site *want = NULL;

		for (k = 0; k < p->nr_sites; k++)
			if (!strcmp(p->sites[k].symbol, fs->v[i].labels[FLEET_SYMBOL]))
				want = &p->sites[k];
		assert_non_null(want);
		fleet_site_fill(&fs->v[i], &got);
		assert_int_equal(got.buckets.nr, want->buckets.nr);
		for (k = 0; k < want->buckets.nr; k++) {
			assert_int_equal(got.buckets.v[k].b, want->buckets.v[k].b);
			assert_int_equal(got.buckets.v[k].count, want->buckets.v[k].count);
			assert_int_equal(got.buckets.v[k].bytes, want->buckets.v[k].bytes);
		}
		assert_int_equal(got.calls, want->calls);
		assert_int_equal(got.bytes, want->bytes);
		sparse_hist_free(&got.buckets);
		found++;
	}
	assert_int_equal(found, 3);
}

/*
 * Sparse text lists 16 bounds of calls (app_copy 31, 1023, 1535, 4095, 8191; app_small 0, 1,
 * 3, 7, 16383, 32767; app_huge 8191, 2^32 - 1; +Inf each), dense 38 (the agent's bounds, up
 * to 65535: app_copy 31 to 65535, app_small 0 to 65535, app_huge 8191 to 65535, +Inf each);
 * both read back to every bucket of the profile, calls and bytes exact (app_huge's 6 GiB are
 * in +Inf either way, and the mean of one length is that length).
 */
static void sparse_and_dense_read_back(void **state)
{
	struct profile *p = known_profile();
	struct fleet_series fs;
	size_t n;
	char *text;

	text = exposition(p, true);
	assert_int_equal(read_back(text, &fs, NULL, NULL, false, false, &n), 0);
	assert_int_equal(n, 16);
	assert_same_buckets(&fs, p);
	fleet_series_free(&fs);
	free(text);

	text = exposition(p, false);
	assert_int_equal(read_back(text, &fs, NULL, NULL, false, false, &n), 0);
	assert_int_equal(n, 14 + 19 + 5);
	assert_same_buckets(&fs, p);
	fleet_series_free(&fs);
	free(text);
	profile_free(p);
}

/*
 * A bound left out of both twins across which calls rise is read as a wider range, its calls
 * at their mean (exact here: one bucket in it); left out of the calls only, the bytes twin
 * refuses it; a decrease across a gap is refused.
 */
static void gaps_filled_or_refused(void **state)
{
	struct profile *p = known_profile();
	struct fleet_series fs;
	char *text = exposition(p, true), *bad;
	size_t n;

	/* 1024..1535 merged with 1536..4095 below le 4095: the 100 calls at their mean, 1100. */
	assert_int_equal(read_back(text, &fs, "app_copy", "1535.0", true, true, &n), 0);
	assert_int_equal(n, 15);
	assert_same_buckets(&fs, p);
	fleet_series_free(&fs);

	/* The calls without le 1535, the bytes with it: 110000 bytes where no calls are. */
	assert_int_equal(read_back(text, &fs, "app_copy", "1535.0", true, false, &n), -EINVAL);
	fleet_series_free(&fs);
	/* Without le 1023 in both, app_copy's 1000 calls of 16 B and 100 of 1 KiB stay apart. */
	assert_int_equal(read_back(text, &fs, "app_copy", "1023.0", true, true, &n), 0);
	assert_same_buckets(&fs, p);
	fleet_series_free(&fs);

	/* app_huge's le 2^32 - 1 made 5, below le 8191's 7 across the bounds left out: refused. */
	bad = strdup(text);
	assert_non_null(bad);
	{
		char *at = strstr(bad, "symbol=\"app_huge\"");
		char *v = at ? strstr(at, "le=\"4.294967295e+09\"} 7\n") : NULL;

		assert_non_null(v);
		v[strlen("le=\"4.294967295e+09\"} ")] = '5';
	}
	assert_int_equal(read_back(bad, &fs, NULL, NULL, false, false, &n), -EINVAL);
	fleet_series_free(&fs);
	free(bad);
	free(text);
	profile_free(p);
}

/*
 * The agent's bounds stop at 65535: a site with 10 calls of 100 B, 5 of 100,000 B and 1 of
 * 1 MiB lists le 127 to 65535 and +Inf; read back, the 100 B calls keep their bucket and the
 * 6 calls from 64 KiB on are one range, at the copyprof bucket of their mean (1,548,576 / 6 =
 * 258,096 B), calls and bytes exact.
 */
static void coarse_top_range(void **state)
{
	struct profile *p = profile_new();
	struct profile_site *s, got = { 0 };
	struct fleet_series fs;
	size_t n;
	char *text;

	p->meta.kernel = strdup("6.12.0-test");
	p->meta.cpu_model = strdup("Synthetic CPU");
	s = site(p, "app_big");
	add(s, 100, 10);
	add(s, 100000, 5);
	add(s, 1 << 20, 1);
	profile_site_sum(s);
	text = exposition(p, false);
	assert_null(strstr(text, "le=\"131071.0\""));
	assert_int_equal(read_back(text, &fs, NULL, NULL, false, false, &n), 0);
	assert_int_equal(n, 12); /* 127 ... 1023, 1535, 2047 ... 65535: 11 bounds, +Inf */
	assert_int_equal(fs.nr, 1);
	fleet_site_fill(&fs.v[0], &got);
	assert_int_equal(got.calls, 16);
	assert_int_equal(got.bytes, 1000 + 500000 + (1 << 20));
	assert_int_equal(got.buckets.nr, 2);
	assert_int_equal(got.buckets.v[0].b, cp_bucket_of(100));
	assert_int_equal(got.buckets.v[0].count, 10);
	assert_int_equal(got.buckets.v[1].b, cp_bucket_of(1548576 / 6));
	assert_int_equal(got.buckets.v[1].count, 6);
	assert_int_equal(got.buckets.v[1].bytes, 1548576);
	sparse_hist_free(&got.buckets);
	fleet_series_free(&fs);
	free(text);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sparse_and_dense_read_back),
		cmocka_unit_test(gaps_filled_or_refused),
		cmocka_unit_test(coarse_top_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
