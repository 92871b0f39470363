// SPDX-License-Identifier: GPL-2.0
/* test_export_openmetrics.c: bucket collapsing, sparse bounds, le, escaping, UTF-8, text, protobuf */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/export_openmetrics.h"
#include "lib/utf8.h"
#include "proto/prometheus_metrics.pb-c.h"

/* tests/golden/profile-synthetic.json's app_copy: 1000 x 16 B, 100 in 1024..1151, 10 x 4096. */
static void synthetic_app_copy(struct hist_slot *b)
{
	memset(b, 0, CP_NBUCKETS * sizeof(*b));
	b[16] = (struct hist_slot){ 1000, 16000 };
	b[cp_bucket_of(1024)] = (struct hist_slot){ 100, 110000 };
	b[cp_bucket_of(4096)] = (struct hist_slot){ 10, 40960 };
}

static size_t edge_index(uint64_t edge)
{
	size_t i;

	for (i = 0; i < OM_NR_EDGES; i++)
		if (om_edges[i] == edge)
			return i;
	fail_msg("%llu is not an OpenMetrics edge", (unsigned long long)edge);
	return 0;
}

static void edges_are_bucket_edges(void **state)
{
	static const uint64_t seeds[] = { 32, 64, 128, 256, 512, 1024, 1536, 2048, 4096, 8192 };
	size_t i;

	for (i = 0; i < OM_NR_EDGES; i++) {
		/* An edge starts a bucket: only then is "below it" exact. */
		assert_int_equal(hist_bucket_lo(cp_bucket_of(om_edges[i])), om_edges[i]);
		if (i)
			assert_true(om_edges[i] > om_edges[i - 1]);
	}
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		edge_index(seeds[i]);
	assert_int_equal(om_edges[0], 1);
	assert_int_equal(om_edges[OM_NR_EDGES - 1], 1ULL << 32);
	/* Powers of two and 1536, nothing else. */
	for (i = 0; i < OM_NR_EDGES; i++)
		assert_true(om_edges[i] == 1536 || !(om_edges[i] & (om_edges[i] - 1)));
}

static void cumulate_exact(void **state)
{
	struct hist_slot b[CP_NBUCKETS];
	uint64_t cum[OM_NR_EDGES];
	size_t i;

	synthetic_app_copy(b);
	om_cumulate(b, cum);
	assert_int_equal(cum[edge_index(16)], 0);    /* le 15: nothing below 16 */
	assert_int_equal(cum[edge_index(32)], 1000); /* le 31: the 16-byte copies */
	assert_int_equal(cum[edge_index(1024)], 1000);
	assert_int_equal(cum[edge_index(1536)], 1100); /* 1024..1151 is below 1536 */
	assert_int_equal(cum[edge_index(2048)], 1100);
	assert_int_equal(cum[edge_index(4096)], 1100); /* 4096 is not below 4096 */
	assert_int_equal(cum[edge_index(8192)], 1110);
	assert_int_equal(cum[OM_NR_EDGES - 1], 1110);
	for (i = 1; i < OM_NR_EDGES; i++)
		assert_true(cum[i] >= cum[i - 1]);

	/* Zero-length copies are below 1; a bucket just under an edge counts, one at it not. */
	memset(b, 0, sizeof(b));
	b[0].count = 3;
	b[cp_bucket_of(1535)].count = 5;	/* [1472, 1536) */
	b[cp_bucket_of(1536)].count = 7;	/* [1536, 1792) */
	b[cp_bucket_of(1ULL << 33)].count = 11; /* beyond 2^32: +Inf only */
	om_cumulate(b, cum);
	assert_int_equal(cum[0], 3);
	assert_int_equal(cum[edge_index(1024)], 3);
	assert_int_equal(cum[edge_index(1536)], 8);
	assert_int_equal(cum[edge_index(2048)], 15);
	assert_int_equal(cum[OM_NR_EDGES - 1], 15);
}

/* The bounds listed, as their edges, for the comparison with a list. */
static void assert_listed(const struct hist_slot *b, const uint64_t *want, size_t n)
{
	bool listed[OM_NR_EDGES];
	size_t i, k = 0;

	om_sparse_bounds(b, listed);
	for (i = 0; i < OM_NR_EDGES; i++) {
		if (!listed[i])
			continue;
		assert_true(k < n);
		assert_int_equal(om_edges[i], want[k]);
		k++;
	}
	assert_int_equal(k, n);
}

/*
 * Sparse bounds: the top of each range with calls or bytes, the bound below each run of them
 * but the first; a run of adjacent ranges has no bound inside but their tops.
 */
static void sparse_bounds(void **state)
{
	static const uint64_t app_copy[] = { 32, 1024, 1536, 4096, 8192 };
	static const uint64_t edges[] = { 1, 64, 128, 256, 512, 1ULL << 32 };
	static const uint64_t run[] = { 32, 64, 128, 1536, 2048 };
	struct hist_slot b[CP_NBUCKETS];

	memset(b, 0, sizeof(b));
	assert_listed(b, NULL, 0); /* empty: +Inf alone */
	synthetic_app_copy(b);
	assert_listed(b, app_copy, 5);

	/* Length 0 (the range below 1), 64 B, bytes without calls at 300, 8 GiB (+Inf only). */
	memset(b, 0, sizeof(b));
	b[0].count = 3;
	b[cp_bucket_of(64)] = (struct hist_slot){ 2, 128 };
	b[cp_bucket_of(300)] = (struct hist_slot){ 0, 5 };
	b[cp_bucket_of(1ULL << 33)] = (struct hist_slot){ 1, 1ULL << 33 };
	assert_listed(b, edges, 6);

	/* 16, 32 and 100 B make one run (no bound below it); 2000 B a second, 1535 below it. */
	memset(b, 0, sizeof(b));
	b[16].count = 1;
	b[cp_bucket_of(32)].count = 1;
	b[cp_bucket_of(100)].count = 1;
	b[cp_bucket_of(2000)].count = 1;
	assert_listed(b, run, 5);
}

static void le_canonical(void **state)
{
	static const struct {
		uint64_t v;
		const char *want;
	} cases[] = {
		{ 0, "0.0" },
		{ 31, "31.0" },
		{ 4095, "4095.0" },
		{ 999999, "999999.0" },
		{ 1000000, "1e+06" },
		{ 1100000, "1.1e+06" },
		{ 1048575, "1.048575e+06" },
		{ 4294967295ULL, "4.294967295e+09" },
		{ 10000000000ULL, "1e+10" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		om_format_le(buf, sizeof(buf), cases[i].v);
		assert_string_equal(buf, cases[i].want);
	}
}

static char *escaped(const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	om_put_escaped(f, s);
	fclose(f);
	return out;
}

static void escaping(void **state)
{
	char *e;

	e = escaped("C:\\DIR\\FILE.TXT");
	assert_string_equal(e, "C:\\\\DIR\\\\FILE.TXT");
	free(e);
	e = escaped("Cannot find file:\n\"FILE.TXT\"");
	assert_string_equal(e, "Cannot find file:\\n\\\"FILE.TXT\\\"");
	free(e);
	/* UTF-8 passes; a byte that starts no sequence becomes U+FFFD. */
	e = escaped("caf\xc3\xa9 \xff end\xe2\x82");
	assert_string_equal(e, "caf\xc3\xa9 " UTF8_REPLACEMENT
			       " end" UTF8_REPLACEMENT UTF8_REPLACEMENT);
	free(e);
	e = escaped("");
	assert_string_equal(e, "");
	free(e);
}

/*
 * Prometheus text 0.0.4: HELP before TYPE, no UNIT, no # EOF; HELP escapes \\ and \n only
 * (its parser refuses \"), label values \" too; the samples as OpenMetrics writes them.
 */
static void text_004(void **state)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct metric_writer *w;

	assert_non_null(f);
	w = mw_text004_new(f);
	assert_non_null(w);
	mw_family(w, "x_seconds", MW_GAUGE, "seconds", "a \"q\" \\ and\nmore");
	mw_gauge(w, (struct mw_label[]){ { "a", "v\"1" }, { "b", "" } }, 2, 40);
	mw_count(w, NULL, 0, 7);
	assert_int_equal(mw_close(w), 0);
	fclose(f);
	assert_string_equal(out, "# HELP x_seconds a \"q\" \\\\ and\\nmore\n"
				 "# TYPE x_seconds gauge\n"
				 "x_seconds{a=\"v\\\"1\"} 40.0\n"
				 "x_seconds 7\n");
	free(out);
}

static void utf8_sequences(void **state)
{
	char *s;

	assert_int_equal(utf8_seq_len("a"), 1);
	assert_int_equal(utf8_seq_len("\xc3\xa9"), 2);
	assert_int_equal(utf8_seq_len("\xe2\x82\xac"), 3);     /* euro sign */
	assert_int_equal(utf8_seq_len("\xf0\x9f\x98\x80"), 4); /* U+1F600 */
	assert_int_equal(utf8_seq_len("\xc0\x80"), 0);	       /* overlong NUL */
	assert_int_equal(utf8_seq_len("\xe0\x80\xaf"), 0);     /* overlong '/' */
	assert_int_equal(utf8_seq_len("\xed\xa0\x80"), 0);     /* surrogate */
	assert_int_equal(utf8_seq_len("\xf4\x90\x80\x80"), 0); /* past U+10FFFF */
	assert_int_equal(utf8_seq_len("\x80"), 0);	       /* continuation */
	assert_int_equal(utf8_seq_len("\xe2\x82"), 0);	       /* cut by the NUL */
	s = utf8_sanitize("ok\xfe\xc3\xa9");
	assert_string_equal(s, "ok" UTF8_REPLACEMENT "\xc3\xa9");
	free(s);
}

/*
 * The whole exposition of one site: structure, numbers, labels (the series short, what the
 * site is in copyprof_site_info, the copy family as the agent names it), the leading empty
 * buckets left out, the final # EOF.
 */
static void exposition(void **state)
{
	struct profile *p = profile_new();
	struct profile_site *s = profile_add_site(p);
	struct hist_slot dense[CP_NBUCKETS];
	struct om_opts o = { 0 };
	struct om_stats st;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	p->meta.kernel = strdup("6.12.0-test");
	p->meta.hostname = strdup("host-a");
	p->meta.duration_s = 1.5;
	s->target = strdup("vmlinux");
	s->symbol = strdup("say \"hi\"\\");
	s->offset = 0x794;
	s->mechanism = strdup("kprobe");
	s->family = CF_MEMCPY; /* as record gives a call __memcpy site */
	synthetic_app_copy(dense);
	assert_int_equal(sparse_hist_set_dense(&s->buckets, dense), 0);
	profile_site_sum(s);
	assert_int_equal(export_openmetrics(p, f, &o, &st), 0);
	fclose(f);
	assert_int_equal(st.series, 1);
	/* The buckets below 16 B, the shortest length, hold nothing and are left out. */
	assert_int_equal(st.lines, (OM_NR_EDGES - 5) + 3 + 1 + 1);
	assert_null(strstr(out, "le=\"15.0\""));
	assert_non_null(strstr(out, "le=\"31.0\"} 1000\n"));
	assert_non_null(strstr(out, "# TYPE copyprof_copy_length_bytes histogram\n"
				    "# UNIT copyprof_copy_length_bytes bytes\n"
				    "# HELP copyprof_copy_length_bytes "));
	/* The series: the site, (no CPU model known) the host; what the site is, once. */
	assert_non_null(strstr(out, "copyprof_copy_length_bytes_bucket{site=\"0\",host=\"host-a\","
				    "le=\"1535.0\"} 1100\n"));
	assert_non_null(strstr(out, "# TYPE copyprof_site_info gauge\n"));
	assert_non_null(strstr(out, "copyprof_site_info{site=\"0\",symbol="
				    "\"say \\\"hi\\\"\\\\\",offset=\"0x794\",target=\"vmlinux\","
				    "mechanism=\"kprobe\",family=\"memcpy\",kernel=\"6.12.0-test\","
				    "host=\"host-a\"} 1\n"));
	assert_null(strstr(out, "symbol=\"say \\\"hi\\\"\\\\\",offset=\"0x794\",target=\"vmlinux\","
				"mechanism=\"kprobe\",family=\"memcpy\",kernel=\"6.12.0-test\","
				"host=\"host-a\","));
	assert_non_null(strstr(out, ",le=\"+Inf\"} 1110\n"));
	assert_non_null(strstr(out, "host=\"host-a\"} 1110\n"));   /* _count */
	assert_non_null(strstr(out, "host=\"host-a\"} 166960\n")); /* _sum */
	assert_non_null(strstr(out, "copyprof_recording_duration_seconds{kernel=\"6.12.0-test\","
				    "host=\"host-a\"} 1.5\n"));
	assert_int_equal(strcmp(out + len - 6, "# EOF\n"), 0);
	/* No sampled family for a profile without sampled sites. */
	assert_null(strstr(out, "sampled"));
	free(out);

	/* Sparse: 31, 1023 and 1535, 4095 and 8191; not 15, 63 ... 511, 2047 or 16383 on. */
	f = open_memstream(&out, &len);
	o.sparse = true;
	assert_int_equal(export_openmetrics(p, f, &o, &st), 0);
	fclose(f);
	assert_int_equal(st.lines, 5 + 3 + 1 + 1);
	assert_non_null(strstr(out, "le=\"31.0\"} 1000\n"));
	assert_non_null(strstr(out, "le=\"1023.0\"} 1000\n"));
	assert_non_null(strstr(out, "le=\"1535.0\"} 1100\n"));
	assert_non_null(strstr(out, "le=\"4095.0\"} 1100\n"));
	assert_non_null(strstr(out, "le=\"8191.0\"} 1110\n"));
	assert_non_null(strstr(out, ",le=\"+Inf\"} 1110\n"));
	assert_null(strstr(out, "le=\"15.0\""));
	assert_null(strstr(out, "le=\"511.0\""));
	assert_null(strstr(out, "le=\"2047.0\""));
	assert_null(strstr(out, "le=\"16383.0\""));
	free(out);
	o.sparse = false;

	/* --timestamp needs meta.start. */
	f = open_memstream(&out, &len);
	o.timestamp = true;
	assert_int_equal(export_openmetrics(p, f, &o, &st), -EINVAL);
	fclose(f);
	free(out);
	p->meta.start = strdup("2026-11-30T09:00:00Z");
	f = open_memstream(&out, &len);
	assert_int_equal(export_openmetrics(p, f, &o, &st), 0);
	fclose(f);
	assert_non_null(strstr(out, ",le=\"+Inf\"} 1110 1796029200\n"));
	free(out);

	/* The agent's (live): what the site is on every series, no site id, host or site info. */
	f = open_memstream(&out, &len);
	o = (struct om_opts){ .live = true };
	assert_int_equal(export_openmetrics(p, f, &o, &st), 0);
	fclose(f);
	assert_non_null(strstr(out,
			       "copyprof_copy_length_bytes_bucket{symbol=\"say \\\"hi\\\"\\\\\","
			       "offset=\"0x794\",target=\"vmlinux\",mechanism=\"kprobe\","
			       "family=\"memcpy\",le=\"1535.0\"} 1100\n"));
	assert_non_null(strstr(out, "copyprof_copy_bytes_by_length_bytes_bucket{"));
	assert_null(strstr(out, "copyprof_site_info"));
	assert_null(strstr(out, "site=\"0\""));
	free(out);
	profile_free(p);
}

/* A delimited protobuf exposition's first family, unpacked (the caller frees it). */
static Io__Prometheus__Client__MetricFamily *first_family(const uint8_t *buf, size_t len)
{
	size_t n = 0, i = 0;
	int shift = 0;

	do {
		assert_true(i < len);
		n |= (size_t)(buf[i] & 0x7f) << shift;
		shift += 7;
	} while (buf[i++] & 0x80);
	assert_true(i + n <= len);
	return io__prometheus__client__metric_family__unpack(NULL, n, buf + i);
}

/*
 * The protobuf exposition: one native histogram of schema 0 per site, each copyprof bucket in
 * the power of two that holds it (16 B in bucket 5, up to 32; 1024..1151 in 11; 4096 in 13),
 * length 0 in the zero bucket, counts and sums exact, spans with the short gap kept as a zero.
 */
static void native_protobuf(void **state)
{
	struct profile *p = profile_new();
	struct profile_site *s = profile_add_site(p);
	struct om_opts o = { .live = true };
	struct hist_slot dense[CP_NBUCKETS];
	Io__Prometheus__Client__MetricFamily *fam;
	Io__Prometheus__Client__Histogram *h;
	struct metric_writer *w;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	s->target = strdup("vmlinux");
	s->symbol = strdup("k_copy");
	s->mechanism = strdup("kprobe");
	s->family = CF_MEMCPY; /* as record gives a call __memcpy site */
	synthetic_app_copy(dense);
	dense[0] = (struct hist_slot){ 7, 0 };
	assert_int_equal(sparse_hist_set_dense(&s->buckets, dense), 0);
	profile_site_sum(s);
	w = mw_proto_new(f);
	export_metrics_put(w, p, &o);
	assert_int_equal(mw_close(w), 0);
	fclose(f);
	fam = first_family((const uint8_t *)out, len);
	assert_non_null(fam);
	assert_string_equal(fam->name, "copyprof_copy_length_bytes");
	assert_int_equal(fam->type, IO__PROMETHEUS__CLIENT__METRIC_TYPE__HISTOGRAM);
	assert_int_equal(fam->n_metric, 1);
	h = fam->metric[0]->histogram;
	assert_non_null(h);
	assert_int_equal(h->schema, 0);
	assert_int_equal(h->sample_count, 1117);
	assert_true(h->sample_sum == 166960);
	assert_int_equal(h->zero_count, 7);
	/* Bucket 5, a gap of 5 (a new span), then 11 and 13 with 12 kept as a zero. */
	assert_int_equal(h->n_positive_span, 2);
	assert_int_equal(h->positive_span[0]->offset, 5);
	assert_int_equal(h->positive_span[0]->length, 1);
	assert_int_equal(h->positive_span[1]->offset, 5);
	assert_int_equal(h->positive_span[1]->length, 3);
	assert_int_equal(h->n_positive_delta, 4);
	assert_int_equal(h->positive_delta[0], 1000);
	assert_int_equal(h->positive_delta[1], 100 - 1000);
	assert_int_equal(h->positive_delta[2], 0 - 100);
	assert_int_equal(h->positive_delta[3], 10 - 0);
	io__prometheus__client__metric_family__free_unpacked(fam, NULL);
	free(out);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(edges_are_bucket_edges),
		cmocka_unit_test(cumulate_exact),
		cmocka_unit_test(sparse_bounds),
		cmocka_unit_test(le_canonical),
		cmocka_unit_test(escaping),
		cmocka_unit_test(text_004),
		cmocka_unit_test(utf8_sequences),
		cmocka_unit_test(exposition),
		cmocka_unit_test(native_protobuf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
