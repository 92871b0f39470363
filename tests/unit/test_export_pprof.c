// SPDX-License-Identifier: GPL-2.0
/* test_export_pprof.c: histogram shares over stacks; pprof output decoded back with protobuf-c */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "export/export_pprof.h"
#include "lib/hist_split.h"
#include "proto/pprof.pb-c.h"

#define TESTDIR_NAME "export-pprof"
#include "testdir.h"

typedef Perftools__Profiles__Profile Profile;

static void split_small(void **state)
{
	uint64_t cnt[2] = { 5, 5 }, byt[2] = { 50, 5000 }, oc[2], ob[2];
	struct hist_split hs;

	assert_int_equal(hist_split_init(&hs, cnt, byt, 2), 0);
	/* 3 of 10: 1.5 each; the tie's extra one goes to the first column. */
	assert_int_equal(hist_split_row(&hs, 3, oc, ob), 3);
	assert_int_equal(oc[0], 2);
	assert_int_equal(oc[1], 1);
	assert_int_equal(ob[0], 20);
	assert_int_equal(ob[1], 1000);
	/* The last row takes exactly what is left. */
	assert_int_equal(hist_split_row(&hs, 7, oc, ob), 7);
	assert_int_equal(oc[0], 3);
	assert_int_equal(oc[1], 4);
	assert_int_equal(ob[0], 30);
	assert_int_equal(ob[1], 4000);
	assert_int_equal(hs.total, 0);
	/* Nothing left: a further row gets nothing. */
	assert_int_equal(hist_split_row(&hs, 5, oc, ob), 0);
	assert_int_equal(oc[0] + oc[1], 0);
	hist_split_free(&hs);
}

/* Uneven rows over uneven columns: every row and every column adds up exactly. */
static void split_marginals(void **state)
{
	uint64_t cnt[5] = { 10000, 0, 11360, 4132, 1 },
		 byt[5] = { 160000, 0, 12496000, 16924672, 9 };
	uint64_t rows[4] = { 12345, 7, 13000, 141 }, col_c[5] = { 0 }, col_b[5] = { 0 };
	uint64_t oc[5], ob[5], sum;
	struct hist_split hs;
	size_t r, k;

	assert_int_equal(hist_split_init(&hs, cnt, byt, 5), 0);
	for (r = 0; r < 4; r++) {
		assert_int_equal(hist_split_row(&hs, rows[r], oc, ob), rows[r]);
		for (sum = 0, k = 0; k < 5; k++) {
			sum += oc[k];
			col_c[k] += oc[k];
			col_b[k] += ob[k];
		}
		assert_int_equal(sum, rows[r]);
		assert_int_equal(oc[1], 0);
	}
	for (k = 0; k < 5; k++) {
		assert_int_equal(col_c[k], cnt[k]);
		assert_int_equal(col_b[k], byt[k]);
	}
	hist_split_free(&hs);
}

static Profile *decode(const void *gz, size_t len)
{
	static uint8_t raw[1 << 20];
	z_stream zs = { 0 };
	Profile *m;

	assert_int_equal(inflateInit2(&zs, 15 + 16), Z_OK);
	zs.next_in = (Bytef *)gz;
	zs.avail_in = (uInt)len;
	zs.next_out = raw;
	zs.avail_out = sizeof(raw);
	assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
	m = perftools__profiles__profile__unpack(NULL, zs.total_out, raw);
	inflateEnd(&zs);
	assert_non_null(m);
	return m;
}

static Profile *export_opts(const char *json, const struct export_pprof_opts *o,
			    struct export_pprof_stats *st)
{
	struct profile *p;
	size_t len;
	void *gz;
	Profile *m;

	write_text("p.json", json);
	assert_int_equal(profile_read(path_in_dir("p.json"), &p), 0);
	assert_int_equal(export_pprof(p, o, &gz, &len, st), 0);
	m = decode(gz, len);
	free(gz);
	profile_free(p);
	return m;
}

static Profile *export_text(const char *json, struct export_pprof_stats *st)
{
	return export_opts(json, NULL, st);
}

static const char *str(const Profile *m, int64_t i)
{
	assert_true(i >= 0 && (size_t)i < m->n_string_table);
	return m->string_table[i];
}

/* The name of the function of a location's last line (the outer function). */
static const char *frame(const Profile *m, uint64_t loc_id)
{
	const Perftools__Profiles__Location *l = m->location[loc_id - 1];
	const Perftools__Profiles__Function *f;

	assert_int_equal(l->id, loc_id);
	f = m->function[l->line[l->n_line - 1]->function_id - 1];
	return str(m, f->name);
}

static int64_t num_label(const Profile *m, const Perftools__Profiles__Sample *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n_label; i++)
		if (!strcmp(str(m, s->label[i]->key), key))
			return s->label[i]->num;
	fail_msg("no label %s", key);
	return -1;
}

static const char callers_json[] =
	"{\"format\": \"copyprof-profile\", \"version\": 1,"
	" \"meta\": {\"kernel\": \"6.12.0-test\", \"cpu_model\": \"Synthetic CPU\","
	"   \"hostname\": \"host-a\", \"start\": \"2026-11-30T09:00:00Z\", \"duration_s\": 1.5},"
	" \"sites\": [{\"id\": 0, \"target\": \"vmlinux\", \"symbol\": \"k_copy\", \"offset\": 0,"
	"   \"mechanism\": \"kprobe\", \"len_arg\": \"arg3\","
	"   \"source\": {\"file\": \"/k/a.c\", \"line\": 30,"
	"     \"inlined\": [{\"function\": \"outer\", \"file\": \"/k/k.c\", \"line\": 9},"
	"                   {\"function\": \"inner\", \"file\": \"/k/o.c\", \"line\": 20}]},"
	"   \"buckets\": [{\"lo\": 16, \"hi\": 17, \"count\": 1000, \"bytes\": 16000},"
	"                 {\"lo\": 1024, \"hi\": 1152, \"count\": 100, \"bytes\": 110000},"
	"                 {\"lo\": 4096, \"hi\": 4608, \"count\": 10, \"bytes\": 40960}],"
	"   \"callers\": [{\"target\": \"vmlinux\", \"symbol\": \"alpha\", \"offset\": 16,"
	"     \"buckets\": [{\"lo\": 16, \"hi\": 17, \"count\": 1000, \"bytes\": 16000}]},"
	"    {\"target\": \"vmlinux\", \"symbol\": \"beta\", \"offset\": 32,"
	"     \"buckets\": [{\"lo\": 1024, \"hi\": 1152, \"count\": 100, \"bytes\": 110000}]}],"
	"   \"caller_misses\": 10}]}";

/* tests/golden/profile-callers.json with an inline chain: stacks, values, labels, lines. */
static void pprof_callers(void **state)
{
	struct export_pprof_stats st;
	Profile *m = export_text(callers_json, &st);
	const Perftools__Profiles__Location *site;
	int64_t calls = 0, bytes = 0;
	size_t i;

	assert_string_equal(m->string_table[0], "");
	assert_int_equal(m->n_sample_type, 2);
	assert_string_equal(str(m, m->sample_type[0]->type), "calls");
	assert_string_equal(str(m, m->sample_type[0]->unit), "count");
	assert_string_equal(str(m, m->sample_type[1]->type), "bytes");
	assert_string_equal(str(m, m->default_sample_type), "calls");
	assert_int_equal(m->time_nanos, 1796029200LL * 1000000000LL);
	assert_int_equal(m->duration_nanos, 1500000000LL);
	assert_int_equal(m->period, 1);
	assert_int_equal(m->n_sample, 3);
	assert_int_equal(st.samples, 3);
	for (i = 0; i < m->n_sample; i++) {
		assert_int_equal(m->sample[i]->n_value, 2);
		calls += m->sample[i]->value[0];
		bytes += m->sample[i]->value[1];
	}
	assert_int_equal(calls, 1110);
	assert_int_equal(bytes, 166960);
	/* Per caller first, then what no caller took (caller_misses). */
	assert_int_equal(m->sample[0]->value[0], 1000);
	assert_int_equal(m->sample[0]->n_location_id, 3);
	assert_string_equal(frame(m, m->sample[0]->location_id[0]), "len 16");
	assert_string_equal(frame(m, m->sample[0]->location_id[1]), "k_copy");
	assert_string_equal(frame(m, m->sample[0]->location_id[2]), "alpha");
	assert_int_equal(num_label(m, m->sample[0], "len_min"), 16);
	assert_int_equal(num_label(m, m->sample[0], "len_max"), 16);
	assert_string_equal(frame(m, m->sample[1]->location_id[0]), "len 1024..1151");
	assert_string_equal(frame(m, m->sample[1]->location_id[2]), "beta");
	assert_int_equal(m->sample[1]->value[1], 110000);
	assert_int_equal(m->sample[2]->n_location_id, 2);
	assert_string_equal(frame(m, m->sample[2]->location_id[0]), "len 4096..4607");
	assert_int_equal(num_label(m, m->sample[2], "len_min"), 4096);
	assert_int_equal(num_label(m, m->sample[2], "len_max"), 4607);
	assert_int_equal(m->sample[2]->value[0], 10);
	assert_int_equal(m->sample[2]->value[1], 40960);
	/* The site's frame: inner at a.c:30, inlined in outer at o.c:20, inlined in k_copy at k.c:9. */
	site = m->location[m->sample[0]->location_id[1] - 1];
	assert_int_equal(site->n_line, 3);
	assert_string_equal(str(m, m->function[site->line[0]->function_id - 1]->name), "inner");
	assert_string_equal(str(m, m->function[site->line[0]->function_id - 1]->filename),
			    "/k/a.c");
	assert_int_equal(site->line[0]->line, 30);
	assert_string_equal(str(m, m->function[site->line[1]->function_id - 1]->name), "outer");
	assert_int_equal(site->line[1]->line, 20);
	assert_string_equal(str(m, m->function[site->line[2]->function_id - 1]->name), "k_copy");
	assert_string_equal(str(m, m->function[site->line[2]->function_id - 1]->filename),
			    "/k/k.c");
	assert_int_equal(site->line[2]->line, 9);
	assert_int_equal(site->mapping_id, 1);
	assert_string_equal(str(m, m->mapping[0]->filename), "vmlinux");
	perftools__profiles__profile__free_unpacked(m, NULL);
}

/* --length-as label: the same samples and labels, no bucket frames; the site is the leaf. */
static void pprof_callers_label(void **state)
{
	struct export_pprof_opts o = { .length_as = EXPORT_LENGTH_LABEL };
	struct export_pprof_stats st;
	Profile *m = export_opts(callers_json, &o, &st);
	size_t i;

	assert_int_equal(m->n_sample, 3);
	assert_int_equal(st.calls, 1110);
	assert_int_equal(st.bytes, 166960);
	/* k_copy, alpha, beta: no "len ..." location at all. */
	assert_int_equal(m->n_location, 3);
	assert_int_equal(st.locations, 3);
	for (i = 0; i < m->n_location; i++)
		assert_null(strstr(frame(m, m->location[i]->id), "len "));
	assert_int_equal(m->sample[0]->n_location_id, 2);
	assert_string_equal(frame(m, m->sample[0]->location_id[0]), "k_copy");
	assert_string_equal(frame(m, m->sample[0]->location_id[1]), "alpha");
	assert_int_equal(m->sample[0]->value[0], 1000);
	assert_int_equal(m->sample[0]->value[1], 16000);
	assert_int_equal(num_label(m, m->sample[0], "len_min"), 16);
	assert_int_equal(num_label(m, m->sample[0], "len_max"), 16);
	assert_string_equal(frame(m, m->sample[1]->location_id[1]), "beta");
	assert_int_equal(num_label(m, m->sample[1], "len_min"), 1024);
	assert_int_equal(num_label(m, m->sample[1], "len_max"), 1151);
	assert_int_equal(m->sample[2]->n_location_id, 1);
	assert_string_equal(frame(m, m->sample[2]->location_id[0]), "k_copy");
	assert_int_equal(m->sample[2]->value[0], 10);
	assert_int_equal(m->sample[2]->value[1], 40960);
	assert_int_equal(num_label(m, m->sample[2], "len_min"), 4096);
	assert_int_equal(num_label(m, m->sample[2], "len_max"), 4607);
	perftools__profiles__profile__free_unpacked(m, NULL);
}

/* Two stacks share one site's histogram: stacks and buckets both add up exactly. */
static void pprof_sampled(void **state)
{
	struct export_pprof_stats st;
	Profile *m = export_text(
		"{\"format\": \"copyprof-profile\", \"version\": 1,"
		" \"meta\": {\"duration_s\": 2, \"sample_hz\": 999, \"total_samples\": 100},"
		" \"sites\": [{\"id\": 0, \"target\": \"vmlinux\", \"symbol\": \"read_zero\","
		"   \"offset\": 119, \"mechanism\": \"sample\", \"len_arg\": \"recovered\","
		"   \"calls\": 12, \"leaf\": \"inline_rep_stosb\", \"family\": \"stos\","
		"   \"weight\": \"time\", \"stacks\": [\"a;vfs_read;read_zero;inline_rep_stosb 6\","
		"                                     \"b;read_zero;inline_rep_stosb 4\"],"
		"   \"buckets\": [{\"lo\": 16, \"hi\": 17, \"count\": 5, \"bytes\": 80},"
		"                 {\"lo\": 4096, \"hi\": 4608, \"count\": 5, \"bytes\": 20480}]}]}",
		&st);
	int64_t by_stack[3] = { 0 }, by_len[3] = { 0 }, bytes = 0;
	size_t i;

	assert_int_equal(m->n_sample_type, 2);
	assert_string_equal(str(m, m->sample_type[0]->type), "samples");
	assert_string_equal(str(m, m->sample_type[1]->type), "sample_bytes");
	assert_string_equal(str(m, m->period_type->type), "cpu");
	assert_string_equal(str(m, m->period_type->unit), "nanoseconds");
	assert_int_equal(m->period, 1001001); /* 1 s / 999 */
	assert_int_equal(st.sampled, 12);
	for (i = 0; i < m->n_sample; i++) {
		const Perftools__Profiles__Sample *s = m->sample[i];
		const char *len = frame(m, s->location_id[0]);
		const char *root = frame(m, s->location_id[s->n_location_id - 1]);
		int li = !strcmp(len, "len 16") ? 0 : !strcmp(len, "len 4096..4607") ? 1 : 2;

		assert_string_equal(frame(m, s->location_id[1]), "inline_rep_stosb");
		assert_string_equal(frame(m, s->location_id[2]), "read_zero");
		by_stack[!strcmp(root, "a") ? 0 : !strcmp(root, "b") ? 1 : 2] += s->value[0];
		by_len[li] += s->value[0];
		bytes += s->value[1];
	}
	/* 6 and 4 samples per stack, 2 not in any stack (leaf -> site); 5, 5 and 2 unknown. */
	assert_int_equal(by_stack[0], 6);
	assert_int_equal(by_stack[1], 4);
	assert_int_equal(by_stack[2], 2);
	assert_int_equal(by_len[0], 5);
	assert_int_equal(by_len[1], 5);
	assert_int_equal(by_len[2], 2);
	assert_int_equal(bytes, 80 + 20480);
	perftools__profiles__profile__free_unpacked(m, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_small),	 cmocka_unit_test(split_marginals),
		cmocka_unit_test(pprof_callers), cmocka_unit_test(pprof_callers_label),
		cmocka_unit_test(pprof_sampled),
	};

	return cmocka_run_group_tests(tests, testdir_setup, testdir_teardown);
}
