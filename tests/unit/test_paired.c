// SPDX-License-Identifier: GPL-2.0
/* test_paired.c: the paired measurement's pure parts: median, bootstrap, plan, stored figures */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include "lib/median.h"
#include "costmodel/mixmeas.h"
#include <linux/types.h>
#include "cp_shared.h"
#include "lib/hist.h"
#include "measure/paired_plan.h"
#include "measure/paired_rounds.h"
#include "measure/paired_settled.h"
#include "measure/paired_stats.h"
#include "measure/replay_mix.h"
#include "measure/replay_order.h"
#include "measure/replay_rng.h"
#include "measure/replay_regions.h"
#include "estimate/estimate_input.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The selection gives the sorted array's median for every length, ties and all, and the
 * sorting median the same (one convention: NAN for none); Tippett's d2 at its ends.
 */
static void test_median(void **state)
{
	double v[64], w[64], u[64];
	unsigned int seed = 7;
	int t, n, i;

	(void)state;
	assert_true(isnan(median_select(v, 0)));
	assert_true(isnan(median_sorted(v, 0)));
	assert_true(tippett_d2(1) == 0 && tippett_d2(2) == 1.128 && tippett_d2(5) == 2.326);
	assert_true(tippett_d2(10) == 3.078 && tippett_d2(64) == 3.078);
	for (t = 0; t < 5000; t++) {
		n = 1 + (int)(rand_r(&seed) % 63);
		for (i = 0; i < n; i++)
			v[i] = w[i] = u[i] = (double)(rand_r(&seed) % 5) / 4;
		qsort(w, (size_t)n, sizeof(*w), cmp_double);
		assert_true(median_select(v, (size_t)n) ==
			    (n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2));
		assert_true(median_sorted(u, (size_t)n) == median_select(w, (size_t)n));
	}
}

/* The same rounds and seed give the same interval; it holds the median; it is a change in %. */
static void test_bootstrap(void **state)
{
	double r[301], p1, lo1, hi1, p2, lo2, hi2;
	size_t i;

	(void)state;
	for (i = 0; i < 301; i++)
		r[i] = 1.10 + 0.02 * (double)((i * 37) % 101) / 100 - 0.01;
	assert_int_equal(paired_median_ci(r, NULL, 0, 301, 42, &p1, &lo1, &hi1), 0);
	assert_int_equal(paired_median_ci(r, NULL, 0, 301, 42, &p2, &lo2, &hi2), 0);
	assert_true(p1 == p2 && lo1 == lo2 && hi1 == hi2);
	assert_true(lo1 <= p1 && p1 <= hi1);
	assert_true(fabs(p1 - 10.0) < 0.1);
	assert_true(hi1 - lo1 < 0.5);
	/* Seed 0 is no special case (a zero xorshift state would give a zero-width interval). */
	assert_int_equal(paired_median_ci(r, NULL, 0, 301, 0, &p2, &lo2, &hi2), 0);
	assert_true(hi2 > lo2);
}

/* Groups that differ widen the interval: it covers the batches' differences too. */
static void test_grouped_bootstrap(void **state)
{
	double r[400], p, lo, hi, gp, glo, ghi;
	uint8_t g[400];
	size_t i;

	(void)state;
	for (i = 0; i < 400; i++) {
		g[i] = (uint8_t)(i % 4);
		r[i] = 1.10 + 0.01 * (double)g[i] + 0.001 * (double)((i * 37) % 11);
	}
	assert_int_equal(paired_median_ci(r, NULL, 0, 400, 3, &p, &lo, &hi), 0);
	assert_int_equal(paired_median_ci(r, g, 4, 400, 3, &gp, &glo, &ghi), 0);
	assert_true(p == gp);
	assert_true(ghi - glo > 2 * (hi - lo));
	assert_true(glo <= gp && gp <= ghi);
}

/*
 * Every batch weighs the same, whatever its quiet rounds: 300 rounds at 1.10 in one batch
 * (another place of the code, on a core quiet throughout), 30 at 1.30 and 30 at 1.40 in two
 * others. By rounds the median is the first batch's +10%; by batch, the middle one's +30%.
 */
static void test_groups_weigh_alike(void **state)
{
	double r[360], p, lo, hi;
	uint8_t g[360];
	size_t i;

	(void)state;
	for (i = 0; i < 360; i++) {
		g[i] = (uint8_t)(i < 300 ? 0 : i < 330 ? 1 : 2);
		r[i] = g[i] == 0 ? 1.10 : g[i] == 1 ? 1.30 : 1.40;
	}
	assert_int_equal(paired_median_ci(r, NULL, 0, 360, 9, &p, &lo, &hi), 0);
	assert_true(fabs(p - 10.0) < 1e-9);
	assert_int_equal(paired_median_ci(r, g, 3, 360, 9, &p, &lo, &hi), 0);
	assert_true(fabs(p - 30.0) < 1e-9);
	assert_true(lo <= 10.0 + 1e-9 && hi >= 40.0 - 1e-9); /* the batches' spread, all of it */
}

/*
 * A run quiet in one batch only: 60 quiet rounds there, and 3 or 4 in each of the others whose
 * reference pass happened to be fast while the rest of the round was disturbed (every ratio 14%
 * low). Drawn as groups of their own, as often as the batch of 60, the three small ones made
 * up a whole resample about one time in three and dragged the interval's lower end to -14%.
 * Joined to the groups beside them, they are rounds among 70.
 */
static void test_small_group_joined(void **state)
{
	static const size_t sizes[] = { 60, 3, 4, 3 };
	double r[70], p, lo, hi;
	uint8_t g[70];
	size_t i, k, n = 0;

	(void)state;
	for (k = 0; k < 4; k++)
		for (i = 0; i < sizes[k]; i++, n++) {
			g[n] = (uint8_t)k;
			r[n] = k ? 0.86 : 1.0 + 0.001 * (double)((n * 37) % 11) - 0.005;
		}
	assert_int_equal(paired_median_ci(r, g, 4, n, 5, &p, &lo, &hi), 0);
	assert_true(fabs(p) < 0.5);
	assert_true(lo > -1 && hi < 1);
}

/* A family result with the rows of est_policies_make(): today, always, T..., never, oracle. */
static void rows(struct est_family_result *fr, struct est_row *w, const uint64_t *t, size_t nt)
{
	size_t i, n = 0;

	memset(fr, 0, sizeof(*fr));
	fr->family = CF_MEMCPY;
	fr->today_impl = "movsb";
	w[n++] = (struct est_row){ .pol = { .kind = POLICY_TODAY, .name = "today" } };
	w[n++] = (struct est_row){ .pol = { .kind = POLICY_ALWAYS, .name = "always" } };
	for (i = 0; i < nt; i++, n++) {
		w[n] = (struct est_row){ .pol = { .kind = POLICY_THRESHOLD, .threshold = t[i] } };
		snprintf(w[n].pol.name, sizeof(w[n].pol.name), "T=%llu", (unsigned long long)t[i]);
	}
	w[n++] = (struct est_row){ .pol = { .kind = POLICY_ORACLE, .name = "oracle" } };
	fr->rows = w;
	fr->nr_rows = n;
}

/* Rows that run the same code on every call the mix can draw share one timed path. */
static void test_plan(void **state)
{
	static double calls[CP_NBUCKETS], bytes[CP_NBUCKETS];
	const uint64_t t[] = { 0, 32, 64, 1024, 2048, 8192, UINT64_MAX };
	struct est_cache warm = { .w = { 1, 0, 0 }, .label = "warm" };
	struct est_family_result fr;
	struct est_row w[16];
	struct replay_mix mx;
	struct paired_plan pl;

	(void)state;
	/* 16 and 4096 bytes only: 32..2048 send every call the same way, as do 8192 and never. */
	calls[cp_bucket_of(16)] = 100;
	bytes[cp_bucket_of(16)] = 1600;
	calls[cp_bucket_of(4096)] = 10;
	bytes[cp_bucket_of(4096)] = 40960;
	assert_int_equal(replay_mix_init(&mx, calls, bytes, NULL, NULL, NULL, NULL, 0, &warm, true),
			 0);
	rows(&fr, w, t, 7);
	assert_int_equal(paired_plan_make(&fr, &mx, &pl), 0);
	/* today = always (movsb), T=0, T=32..2048, T=8192..never, and the A/A control. */
	assert_int_equal(pl.nr_paths, 5);
	assert_int_equal(pl.row_path[0], pl.row_path[1]);
	assert_int_not_equal(pl.row_path[2], pl.row_path[1]); /* T=0: behind the dispatch */
	assert_int_not_equal(pl.row_path[2], pl.row_path[3]); /* 16 B: loop at 32, not at 0 */
	assert_int_equal(pl.row_path[3], pl.row_path[4]);
	assert_int_equal(pl.row_path[4], pl.row_path[5]);
	assert_int_equal(pl.row_path[5], pl.row_path[6]);
	assert_int_not_equal(pl.row_path[6], pl.row_path[7]);
	assert_int_equal(pl.row_path[7], pl.row_path[8]);
	assert_int_equal(pl.row_path[9], -1); /* the oracle runs no code */
	assert_int_equal(pl.control, pl.nr_paths - 1);
	assert_ptr_equal(pl.paths[pl.control].lo, pl.paths[pl.today].lo);
	assert_int_equal(pl.zero, pl.row_path[2]);
	assert_int_equal(pl.always, pl.row_path[1]);
	replay_mix_free(&mx);
}

/*
 * A mix whose rows are all aligned_64: every call placed as place_side() places it, at a
 * nonzero multiple of 64 apart within a page's offsets, both sides at the drawn line offset,
 * and the 63 such distances all drawn.
 */
static void test_aligned_64_draws(void **state)
{
	double calls[CP_NBUCKETS] = { 0 }, bytes[CP_NBUCKETS] = { 0 }, dst[64] = { 0 },
	       src[64] = { 0 };
	double dist[CP_NBUCKETS * CP_NR_DIST] = { 0 };
	struct est_cache warm = { .w = { 1, 0, 0 }, .label = "warm" };
	uint32_t b = cp_bucket_of(4096);
	struct replay_regions rg;
	bool off_seen[CP_DIST_PERIOD / 64] = { false };
	struct replay_mix mx;
	uint64_t seed = 11;
	int i, nr_off = 0;

	(void)state;
	calls[b] = 400;
	bytes[b] = 400 * 4096;
	dst[16] = src[48] = 400; /* the marginals say 16 and 48: the joint class wins */
	dist[b * CP_NR_DIST + CP_DIST_ALIGNED_64] = 400;
	assert_int_equal(replay_mix_init(&mx, calls, bytes, dst, src, dist, NULL, 0, &warm, true),
			 0);
	assert_int_equal(replay_regions_alloc(&rg, 256 << 10, 0, mx.max_len, false, false), 0);
	for (i = 0; i < 4000; i++) {
		struct replay_draw d;
		uint8_t *p, *q;
		uintptr_t delta;

		replay_mix_draw(&mx, &seed, &d);
		assert_int_equal(d.dist, CP_DIST_ALIGNED_64);
		assert_int_equal(d.dst_align, 16);
		assert_int_equal(d.src_align, 16);
		p = replay_regions_pick(&rg, 0, false, d.n, d.dst_align, &seed);
		q = replay_regions_pick_at(&rg, 1, false, d.n,
					   (unsigned int)((uintptr_t)p - d.dist_off), &seed);
		assert_true(q >= rg.warm[1] && q + d.n <= rg.warm[1] + rg.ws_bytes);
		delta = (uintptr_t)p - (uintptr_t)q;
		assert_int_equal(delta & 63, 0);
		assert_int_not_equal(delta & (CP_DIST_PERIOD - 1), 0);
		assert_int_equal((uintptr_t)q & 63, 16);
		assert_int_equal(cp_dist_class((uintptr_t)p, (uintptr_t)q), CP_DIST_ALIGNED_64);
		nr_off += !off_seen[d.dist_off / 64];
		off_seen[d.dist_off / 64] = true;
	}
	assert_int_equal(nr_off, CP_DIST_PERIOD / 64 - 1); /* 4000 draws of 63: all met */
	replay_regions_free(&rg);
	replay_mix_free(&mx);
}

/*
 * Recorded distances: each class drawn in its share, at the distance the recorded alignments
 * give (destination at 32 in its line, source at 0: 32 ahead, 4064 behind), and placed there.
 */
static void test_distance_draws(void **state)
{
	double calls[CP_NBUCKETS] = { 0 }, bytes[CP_NBUCKETS] = { 0 }, dst[64] = { 0 },
	       src[64] = { 0 };
	double dist[CP_NBUCKETS * CP_NR_DIST] = { 0 };
	struct est_cache warm = { .w = { 1, 0, 0 }, .label = "warm" };
	uint32_t b = cp_bucket_of(1024);
	struct replay_regions rg;
	int seen[CP_NR_DIST] = { 0 }, i;
	struct replay_mix mx;
	uint64_t seed = 7;

	(void)state;
	calls[b] = 400;
	bytes[b] = 400 * 1024;
	dst[32] = src[0] = 400;
	for (i = 0; i < CP_NR_DIST; i++)
		dist[b * CP_NR_DIST + i] = 100;
	assert_int_equal(replay_mix_init(&mx, calls, bytes, dst, src, dist, NULL, 0, &warm, true),
			 0);
	assert_true(mx.dist_recorded);
	assert_int_equal(replay_regions_alloc(&rg, 256 << 10, 0, mx.max_len, false, false), 0);
	for (i = 0; i < 1000 * CP_NR_DIST; i++) {
		struct replay_draw d;
		uint8_t *p, *q;

		replay_mix_draw(&mx, &seed, &d);
		assert_in_range(d.dist, 0, CP_NR_DIST - 1);
		seen[d.dist]++;
		p = replay_regions_pick(&rg, 0, false, d.n, d.dst_align, &seed);
		if (d.dist == CP_DIST_OTHER)
			continue;
		if (d.dist == CP_DIST_ALIGNED_64)
			assert_int_equal(d.src_align, d.dst_align);
		else
			assert_int_equal(d.dist_off, d.dist == CP_DIST_ZERO    ? 0
						     : d.dist == CP_DIST_AHEAD ? 32
									       : 4064);
		q = replay_regions_pick_at(&rg, 1, false, d.n,
					   (unsigned int)((uintptr_t)p - d.dist_off), &seed);
		assert_true(q >= rg.warm[1] && q + d.n <= rg.warm[1] + rg.ws_bytes);
		assert_int_equal(((uintptr_t)p - (uintptr_t)q) & (CP_DIST_PERIOD - 1), d.dist_off);
		assert_int_equal(cp_dist_class((uintptr_t)p, (uintptr_t)q), d.dist);
	}
	for (i = 0; i < CP_NR_DIST; i++) /* 1000 each expected; 5 sigma is about 140 */
		assert_in_range(seen[i], 850, 1150);
	replay_regions_free(&rg);
	replay_mix_free(&mx);
	/* A bucket without rows: the sides independent (-1). */
	memset(dist, 0, sizeof(dist));
	assert_int_equal(replay_mix_init(&mx, calls, bytes, dst, src, dist, NULL, 0, &warm, true),
			 0);
	assert_false(mx.dist_recorded);
	{
		struct replay_draw d;

		replay_mix_draw(&mx, &seed, &d);
		assert_int_equal(d.dist, -1);
	}
	replay_mix_free(&mx);
}

/* What is stored reads back; what cannot be is refused. */
static void test_mixmeas_json(void **state)
{
	struct mixmeas m = { 0 }, back;
	struct mixmeas_row r[2] = { { .name = "today" }, { .name = "T=512" } };
	const struct policy_key t512 = { POLICY_THRESHOLD, 512 };
	json_object *o;

	(void)state;
	m.family = "memcpy";
	m.digest = "0123456789abcdef";
	m.input = "x.csv";
	m.today = "movsb";
	m.weight = "calls";
	m.cache = "warm";
	m.alignment = "uniform";
	m.rounds = 10;
	m.quiet_rounds = 7;
	m.busy_rounds = 3;
	m.quiet_tolerance = 0.05;
	r[1].quiet = (struct mixmeas_figure){ 14.5, 12.0, 18.0 };
	r[1].busy = (struct mixmeas_figure){ NAN, NAN, NAN };
	m.rows = r;
	m.nr_rows = 2;
	m.control = (struct mixmeas_figure){ 0.1, -0.2, 0.3 };
	o = mixmeas_to_json(&m);
	assert_int_equal(mixmeas_from_json(o, "t", &back), 0);
	assert_string_equal(back.digest, m.digest);
	assert_int_equal(back.nr_rows, 2);
	assert_true(mixmeas_row_find(&back, &t512)->quiet.delta_pct == 14.5);
	assert_true(isnan(mixmeas_row_find(&back, &t512)->busy.delta_pct));
	assert_true(back.quiet_tolerance == 0.05);
	assert_false(mixmeas_seldom_quiet(&back)); /* 7 of 10 quiet */
	mixmeas_free(&back);
	/* A cost model from before the ladder: its one window, 25%. Not above 0: refused. */
	json_object_object_del(o, "quiet_tolerance");
	assert_int_equal(mixmeas_from_json(o, "t", &back), 0);
	assert_true(back.quiet_tolerance == MIXMEAS_QUIET_TOLERANCE);
	mixmeas_free(&back);
	json_object_object_add(o, "quiet_tolerance", json_object_new_double(0));
	assert_int_equal(mixmeas_from_json(o, "t", &back), -EINVAL);
	json_object_object_add(o, "quiet_tolerance", json_object_new_double(0.8)); /* quietest */
	assert_int_equal(mixmeas_from_json(o, "t", &back), 0);
	mixmeas_free(&back);
	json_object_object_add(o, "quiet_tolerance", json_object_new_double(0.05));
	/* A change of time cannot fall by 100%; quiet + busy must be every round. */
	json_object_object_add(
		json_object_object_get(
			json_object_array_get_idx(json_object_object_get(o, "policies"), 1),
			"quiet"),
		"ci_low", json_object_new_double(-100));
	assert_int_equal(mixmeas_from_json(o, "t", &back), -EINVAL);
	json_object_put(o);
	r[1].quiet.ci_low = 12;
	m.busy_rounds = 4;
	o = mixmeas_to_json(&m);
	assert_int_equal(mixmeas_from_json(o, "t", &back), -EINVAL);
	json_object_put(o);
	/* A row's stored name is its key's serialisation: not a policy, or one twice, refused. */
	m.busy_rounds = 3;
	snprintf(r[1].name, sizeof(r[1].name), "T=0x200");
	o = mixmeas_to_json(&m);
	assert_int_equal(mixmeas_from_json(o, "t", &back), -EINVAL);
	json_object_put(o);
	snprintf(r[1].name, sizeof(r[1].name), "today");
	o = mixmeas_to_json(&m);
	assert_int_equal(mixmeas_from_json(o, "t", &back), -EINVAL);
	json_object_put(o);
}

/* A policy's key and its display name, both ways; a key joins, a name never does. */
static void test_policy_key(void **state)
{
	static const char *const names[] = {
		"today", "always", "oracle", "never", "T=0", "T=512", "T=18446744073709551614"
	};
	static const char *const bad[] = { "T=",
					   "T=x",
					   "T=-1",
					   "T=+5",
					   "T=5 ",
					   "T=0x10",
					   "T=18446744073709551615",
					   "T=99999999999999999999",
					   "Today",
					   "" };
	struct policy_key k, t;
	char buf[POLICY_NAME_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(policy_key_parse(names[i], &k), 0);
		assert_string_equal(policy_key_name(&k, buf, sizeof(buf)), names[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(policy_key_parse(bad[i], &k), -EINVAL);
	assert_int_equal(policy_key_parse("never", &k), 0);
	assert_true(k.kind == POLICY_THRESHOLD && k.threshold == POLICY_NEVER);
	t = (struct policy_key){ POLICY_TODAY, 0 };
	k = (struct policy_key){ POLICY_TODAY, 2112 }; /* glibc's today: costed at its threshold */
	assert_true(policy_key_same(&k, &t));
	k = (struct policy_key){ POLICY_THRESHOLD, 2112 };
	assert_false(policy_key_same(&k, &t));
}

/* A run of 300 rounds whose references are @a rounds at 1.04, @b at 1.08, @c at 1.2, the rest 2. */
static double tolerance_of(size_t a, size_t b, size_t c)
{
	static double ref[300];
	struct paired_run run = { .rounds = 300, .ref = ref };
	size_t r;

	for (r = 0; r < 300; r++)
		ref[r] = r < a ? 1.04 : r < a + b ? 1.08 : r < a + b + c ? 1.2 : 2;
	ref[0] = 1; /* the fastest */
	return paired_run_tolerance(&run);
}

/* The quiet stratum: the tightest window holding PAIRED_MIN_QUIET rounds, else the quietest. */
static void test_quiet_tolerance(void **state)
{
	(void)state;
	assert_true(tolerance_of(PAIRED_MIN_QUIET, 0, 0) == 0.05);
	assert_true(tolerance_of(50, 50, 0) == 0.10);
	assert_true(tolerance_of(20, 20, PAIRED_MIN_QUIET - 40) == 0.25);
	/* No window of the ladder holds enough: the quietest PAIRED_MIN_QUIET rounds' (ref 2). */
	assert_true(tolerance_of(PAIRED_MIN_QUIET - 1, 0, 0) == 1.0);
	assert_true(tolerance_of(20, 20, 20) == 1.0);
	assert_true(tolerance_of(0, 0, 0) == 1.0);
}

/*
 * Quiet rounds are judged within their batch: batch 0 at 1000 ticks, batch 1 (another place
 * of the code) at 1080, 8% slower throughout, batch 2 contended throughout at 1500. Against the
 * run's fastest, batch 1 would have no quiet round at 5%; against its own, all 100 are quiet;
 * batch 2's base is capped PAIRED_PLACE_SPREAD above the run's fastest, so none of its are.
 */
static void test_quiet_per_batch(void **state)
{
	enum { N = 300 };
	double ref[N], base[PAIRED_MAX_BATCHES];
	uint8_t batch[N];
	struct paired_run run = { .rounds = N, .ref = ref, .batch = batch, .nr_batches = 3 };
	bool quiet[N];
	size_t r, per[3] = { 0 };

	(void)state;
	for (r = 0; r < N; r++) {
		batch[r] = (uint8_t)(r / 100);
		ref[r] = (r / 100 == 0 ? 1000 : r / 100 == 1 ? 1080 : 1500) + (r % 100 ? 10 : 0);
	}
	paired_run_bases(&run, base);
	assert_true(base[0] == 1000 && base[1] == 1080);
	assert_true(fabs(base[2] - (1 + PAIRED_PLACE_SPREAD) * 1000) < 1e-9);
	assert_true(paired_run_tolerance(&run) == 0.05);
	assert_int_equal(paired_run_quiet_set(&run, quiet), 200);
	for (r = 0; r < N; r++)
		per[r / 100] += quiet[r];
	assert_true(per[0] == 100 && per[1] == 100 && per[2] == 0);
	/* Each batch's own quiet rounds; the run has its 100, so it wants none more. */
	assert_int_equal(paired_run_batch_quiet(&run, 1), 100);
	assert_int_equal(paired_run_batch_quiet(&run, 2), 0);
	assert_int_equal(paired_run_quiet_wanted(&run), 0);
	/* Batch 0 alone: 40 of its rounds, all quiet, want 60 more. */
	run.rounds = 40;
	assert_int_equal(paired_run_quiet_wanted(&run), PAIRED_MIN_QUIET - 40);
	assert_int_equal(paired_run_batch_quiet(&run, 0), 40);
}

/*
 * The A/A control a run goes on for: 200 quiet rounds in 4 batches of today's code (path 0,
 * 1000 ticks) against itself once more (path 1). Exactly equal: 0 .. 0, settled. The copy 3%
 * slower in one batch of four: its median stays 0 but the batches' bootstrap reaches +3%, not.
 * Two rounds: no figure yet, not settled. The quiet rounds are those of the reference.
 */
static void test_control_settled(void **state)
{
	enum { N = 200 };
	double ticks[2 * N], ref[N];
	uint8_t batch[N];
	struct paired_plan pl = { .nr_paths = 2, .today = 0, .control = 1 };
	struct paired_run run = { .nr_paths = 2,
				  .rounds = N,
				  .ticks = ticks,
				  .ref = ref,
				  .batch = batch,
				  .nr_batches = 4 };
	struct mixmeas_figure ctl;
	bool quiet[N];
	size_t r;

	(void)state;
	for (r = 0; r < N; r++) {
		ticks[2 * r] = ticks[2 * r + 1] = 1000;
		ref[r] = 500;
		batch[r] = (uint8_t)(r / (N / 4));
	}
	ref[7] = 900; /* one round on a busy core */
	assert_int_equal(paired_run_quiet_set(&run, quiet), N - 1);
	assert_false(quiet[7]);
	assert_true(paired_control_settled(&pl, &run, 1, &ctl));
	assert_true(ctl.delta_pct == 0 && ctl.ci_low == 0 && ctl.ci_high == 0);
	for (r = 3 * N / 4; r < N; r++)
		ticks[2 * r + 1] = 1030;
	assert_false(paired_control_settled(&pl, &run, 1, &ctl));
	assert_true(ctl.ci_high > PAIRED_SETTLED_PCT && ctl.ci_high <= 3.0 + 1e-9);
	run.rounds = 2;
	assert_false(paired_control_settled(&pl, &run, 1, &ctl));
	assert_true(isnan(ctl.delta_pct));
}

/* @k of @n draws within five standard deviations of the binomial mean @n * @p. */
static void assert_binomial(long k, long n, double p)
{
	double mu = n * p, sd = sqrt(n * p * (1 - p));

	assert_true(fabs((double)k - mu) <= 5 * sd + 1);
}

/*
 * Exact lengths: a size table with a spike (a third of its calls at 1000 B, the rest spread)
 * is drawn as itself, every length at its own share; a bucket whose calls are partly exact
 * draws those as themselves and smooths only the rest around the rest's own mean.
 */
/*
 * The recorded order's blocks: runs of a cycle give the cycle itself, block after block; runs of
 * random order give blocks never seen before, the lengths in proportion, after a length just
 * the lengths the runs show after it.
 */
static void test_order_blocks(void **state)
{
	static const uint64_t cyc[8] = { 6, 12, 24, 48, 96, 160, 240, 400 };
	struct order_run runs[4];
	struct replay_mix mx = { .runs = runs, .nr_runs = 4 };
	struct replay_order o;
	uint64_t seed = 5, s = 7, out[CP_ORDER_LEN], first[CP_ORDER_LEN];
	uint64_t after6[8] = { 0 }, rec6[8] = { 0 };
	long count[8] = { 0 }, i, same = 0;
	uint32_t r, k;

	(void)state;
	for (r = 0; r < 4; r++) {
		runs[r].nr = CP_ORDER_LEN;
		for (k = 0; k < CP_ORDER_LEN; k++)
			runs[r].len[k] = cyc[k % 8];
	}
	assert_int_equal(replay_order_build(&o, &mx), 0);
	for (i = 0; i < 100; i++) {
		replay_order_block(&o, &seed, out, CP_ORDER_LEN);
		for (k = 0; k < CP_ORDER_LEN; k++)
			assert_int_equal(out[k], cyc[k % 8]);
	}
	replay_order_free(&o);
	/* each run 8 shuffles of the 8 lengths, as orderload's random order */
	for (r = 0; r < 4; r++) {
		runs[r].nr = CP_ORDER_LEN;
		for (k = 0; k < CP_ORDER_LEN; k += 8) {
			uint32_t j, t;

			memcpy(&runs[r].len[k], cyc, sizeof(cyc));
			for (j = 7; j > 0; j--) {
				uint64_t v;

				t = (uint32_t)(replay_rng_below(&s, j + 1));
				v = runs[r].len[k + j];
				runs[r].len[k + j] = runs[r].len[k + t];
				runs[r].len[k + t] = v;
			}
		}
	}
	for (r = 0; r < 4; r++) /* what the runs show after 6: all the blocks may (K = 1 here) */
		for (k = 1; k < CP_ORDER_LEN; k++)
			if (runs[r].len[k - 1] == 6) {
				uint32_t j;

				for (j = 0; cyc[j] != runs[r].len[k]; j++)
					;
				rec6[j] = 1;
			}
	assert_int_equal(replay_order_build(&o, &mx), 0);
	replay_order_block(&o, &seed, first, CP_ORDER_LEN);
	for (i = 0; i < 4000; i++) {
		replay_order_block(&o, &seed, out, CP_ORDER_LEN);
		same += !memcmp(out, first, sizeof(out));
		for (k = 0; k < CP_ORDER_LEN; k++) {
			uint32_t j;

			for (j = 0; j < 8 && cyc[j] != out[k]; j++)
				;
			assert_true(j < 8);
			count[j]++;
			if (k && out[k - 1] == 6)
				after6[j] = 1;
		}
	}
	assert_int_equal(same, 0);
	for (k = 0; k < 8; k++) {
		assert_int_equal(after6[k], rec6[k]);
		assert_true(fabs(count[k] / (4000.0 * CP_ORDER_LEN) - 0.125) < 0.02);
	}
	replay_order_free(&o);
	mx.nr_runs = 0;
	assert_int_equal(replay_order_build(&o, &mx), 0);
	assert_int_equal(o.nr, 0);
	replay_order_free(&o);
}

static void test_exact_draws(void **state)
{
	double calls[CP_NBUCKETS] = { 0 }, bytes[CP_NBUCKETS] = { 0 };
	struct est_cache warm = { .w = { 1, 0, 0 }, .label = "warm" };
	static long seen[4096];
	char path[] = "/tmp/cp_exact_XXXXXX";
	struct est_exact ex[1] = { { 1000, 300 } };
	long spike = 0, n = 300000, i, in_rest = 0;
	struct est_input in;
	struct replay_mix mx;
	uint64_t seed = 11, len;
	uint32_t k;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "size,count\n1000,%d\n", 3 * 1024);
	for (len = 100; len < 4096; len += 4) /* 999 lengths, 2 calls each */
		if (len != 1000)
			fprintf(f, "%llu,2\n", (unsigned long long)len);
	fprintf(f, "1000,2\n");
	fclose(f);
	assert_int_equal(est_input_from_hist(path, CF_MEMCPY, &in), 0);
	unlink(path);
	assert_int_equal(in.sites[0].nr_exact, 999);
	for (k = 0; k < in.sites[0].nr_buckets; k++) {
		calls[in.sites[0].buckets[k].b] = in.sites[0].buckets[k].n;
		bytes[in.sites[0].buckets[k].b] = in.sites[0].buckets[k].bytes;
	}
	assert_int_equal(replay_mix_init(&mx, calls, bytes, NULL, NULL, NULL, in.sites[0].exact,
					 in.sites[0].nr_exact, &warm, true),
			 0);
	assert_true(mx.exact_calls == mx.calls);
	for (i = 0; i < n; i++) {
		struct replay_draw d;

		replay_mix_draw(&mx, &seed, &d);
		assert_true(d.n >= 100 && d.n < 4096 && d.n % 4 == 0);
		seen[d.n]++;
	}
	/* 3074 of 5070 calls at 1000 B; any other length 2 of 5070. */
	assert_binomial(seen[1000], n, 3074.0 / 5070);
	for (len = 100; len < 4096; len += 4)
		if (len != 1000)
			assert_binomial(seen[len], n, 2.0 / 5070);
	replay_mix_free(&mx);
	est_input_free(&in);

	/* [960, 1024): 300 calls at 1000 exactly, 100 more of mean 970 smoothed in 960..980. */
	memset(calls, 0, sizeof(calls));
	memset(bytes, 0, sizeof(bytes));
	calls[cp_bucket_of(1000)] = 400;
	bytes[cp_bucket_of(1000)] = 300 * 1000 + 100 * 970;
	assert_int_equal(replay_mix_init(&mx, calls, bytes, NULL, NULL, NULL, ex, 1, &warm, true),
			 0);
	assert_int_equal(mx.nr, 2);
	assert_true(mx.exact_calls == 300);
	for (i = 0; i < 40000; i++) {
		struct replay_draw d;

		replay_mix_draw(&mx, &seed, &d);
		spike += d.n == 1000;
		in_rest += d.n >= 960 && d.n <= 980;
	}
	assert_binomial(spike, 40000, 0.75);
	assert_int_equal(spike + in_rest, 40000);
	replay_mix_free(&mx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_quiet_tolerance),
		cmocka_unit_test(test_quiet_per_batch),
		cmocka_unit_test(test_groups_weigh_alike),
		cmocka_unit_test(test_control_settled),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_grouped_bootstrap),
		cmocka_unit_test(test_small_group_joined),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_distance_draws),
		cmocka_unit_test(test_aligned_64_draws),
		cmocka_unit_test(test_exact_draws),
		cmocka_unit_test(test_order_blocks),
		cmocka_unit_test(test_mixmeas_json),
		cmocka_unit_test(test_policy_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
