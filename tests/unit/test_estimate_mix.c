// SPDX-License-Identifier: GPL-2.0
/* test_estimate_mix.c: the mix correction's size classes, penalties and split, hand-computed */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_fixture.h"
#include "estimate/estimate_mix.h"
#include "lib/hist.h"

/*
 * One class (a mix with no classes, as before they existed): the mix correction adds each
 * implementation's penalty to its cost below the cutoff, leaves
 * the dispatch cost and everything from the cutoff alone, and a mix not applied (or no mix) is
 * the pure model. Penalties: memcpy_orig +20 ns, movsb +5 ns; only the 16 B calls are below 512.
 *   today   1000*(10 + 20) + 100*113.6 + 10*413.2   = 45492
 *   T=2048  1000*(10 + 1 + 20) + 100*114.6 + 10*232.6 = 44786
 *   T=1024  1000*31 + 100*82.8 + 10*232.6           = 41606
 *   T=0     1000*(30 + 1 + 5) + 100*82.8 + 10*232.6 = 46606
 *   always  1000*35 + 100*81.8 + 10*231.6           = 45496
 *   oracle  1000*30 + 100*81.8 + 10*231.6           = 40496 (the loop is cheaper at 16 B)
 * With a penalty of 12 ns for the dispatch replica, the loop behind it costs 10 + 1 + 12:
 *   T=2048  1000*23 + 100*114.6 + 10*232.6          = 36786
 *   never   1000*23 + 100*114.6 + 10*414.2          = 38602
 */
static void mix_correction_adds_penalties(void **state)
{
	struct costmodel *m = model(true, 0);
	struct est_mix mix = { .applied = true,
			       .cutoff = 512,
			       .calls = 20000,
			       .nr_impls = 2,
			       .impls = { { .impl = "memcpy_orig", .penalty_ns = 20 },
					  { .impl = "movsb", .penalty_ns = 5 } } };
	struct est_family_result r;
	struct est_options o;
	struct est_input in;

	est_options_default(&o);
	assert_null(o.mix);
	o.mix = &mix;
	input(&in, false);
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	NEAR(row(&r, "today")->total_ns, 45492);
	NEAR(row(&r, "T=2048")->total_ns, 44786);
	NEAR(row(&r, "T=1024")->total_ns, 41606);
	NEAR(row(&r, "T=0")->total_ns, 46606);
	NEAR(row(&r, "always")->total_ns, 45496);
	NEAR(row(&r, "oracle")->total_ns, 40496);
	NEAR(r.dispatch_lo_ns, 1);
	NEAR(r.dispatch_hi_ns, 1);
	est_family_result_free(&r);

	mix.impls[2] = (struct est_mix_impl){ .impl = "erms_threshold", .penalty_ns = 12 };
	mix.nr_impls = 3;
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	NEAR(row(&r, "today")->total_ns, 45492);
	NEAR(row(&r, "T=2048")->total_ns, 36786);
	NEAR(row(&r, "never")->total_ns, 38602);
	NEAR(row(&r, "always")->total_ns, 45496);
	est_family_result_free(&r);

	NEAR(est_mix_penalty(&mix, "memcpy_orig", 16), 20);
	NEAR(est_mix_penalty(&mix, "memcpy_orig", 512), 0);
	NEAR(est_mix_penalty(&mix, "rep_stosb", 16), 0);
	NEAR(est_mix_penalty(NULL, "movsb", 16), 0);
	mix.applied = false;
	assert_null(est_mix_find(&mix, "memcpy_orig"));
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	NEAR(row(&r, "today")->total_ns, TODAY);
	NEAR(row(&r, "T=2048")->total_ns, T2048);
	NEAR(row(&r, "T=0")->total_ns, T0);
	NEAR(row(&r, "never")->total_ns, NEVER);
	NEAR(row(&r, "oracle")->total_ns, ORACLE);
	est_family_result_free(&r);
	est_input_free(&in);
	costmodel_free(m);
}

/* Calls per bucket: @n calls of each length @len[i] (exact or not, the bucket of the length). */
static void bucket_calls(double *calls, const uint64_t *len, const double *n, size_t k)
{
	size_t i;

	memset(calls, 0, CP_NBUCKETS * sizeof(*calls));
	for (i = 0; i < k; i++)
		calls[cp_bucket_of(len[i])] += n[i];
}

/*
 * An edge is kept when the class since the last kept edge and everything above it up to the
 * cutoff both hold at least 5% of the short calls. 1000 short calls, 50 is the least:
 *   [0,32) 600, [32,64) 100, [64,128) 30, [128,256) 200, [256,512) 70, and 5000 from 512 on
 *   32: 600 | 400 keep; 64: 100 | 300 keep; 128: 30 < 50 skip; 256: 230 | 70 keep.
 */
static void classes_chosen(void **state)
{
	static const uint64_t len[] = { 8, 40, 100, 200, 300, 4096 };
	static const double n[] = { 600, 100, 30, 200, 70, 5000 };
	double calls[CP_NBUCKETS];
	struct est_mix mix = { .cutoff = EST_MIX_CUTOFF };

	/* The buckets the classes keep counts of end at the cutoff. */
	assert_int_equal(hist_bucket_lo(EST_MIX_NR_BUCKETS), EST_MIX_CUTOFF);
	bucket_calls(calls, len, n, 6);
	NEAR(est_mix_choose_classes(&mix, calls), 1000);
	assert_int_equal(mix.classes.nr, 4);
	assert_int_equal(mix.classes.edges[0], 0);
	assert_int_equal(mix.classes.edges[1], 32);
	assert_int_equal(mix.classes.edges[2], 64);
	assert_int_equal(mix.classes.edges[3], 256);
	assert_int_equal(mix.classes.edges[4], 512);
	NEAR(mix.classes.calls[0], 600);
	NEAR(mix.classes.calls[1], 100);
	NEAR(mix.classes.calls[2], 230);
	NEAR(mix.classes.calls[3], 70);
	assert_int_equal(est_mix_class_of(&mix.classes, 0), 0);
	assert_int_equal(est_mix_class_of(&mix.classes, 63), 1);
	assert_int_equal(est_mix_class_of(&mix.classes, 100), 2);
	assert_int_equal(est_mix_class_of(&mix.classes, 511), 3);
	assert_int_equal(est_mix_class_of(&mix.classes, 512), -1);

	/* All short calls in one class: one class, [0, 512). */
	bucket_calls(calls, (const uint64_t[]){ 300, 4096 }, (const double[]){ 10, 10 }, 2);
	NEAR(est_mix_choose_classes(&mix, calls), 10);
	assert_int_equal(mix.classes.nr, 1);
	assert_int_equal(mix.classes.edges[1], 512);

	/* Nothing below the cutoff. */
	bucket_calls(calls, (const uint64_t[]){ 4096 }, (const double[]){ 10 }, 1);
	NEAR(est_mix_choose_classes(&mix, calls), 0);
}

/*
 * The profile below: 1000 calls of 16 B and 500 of 100 B below the cutoff, so two classes,
 * [0,32) with 1000 calls and [32,512) with 500. Penalties of the nested samples, ns per call:
 *   memcpy_orig    below 32: 4, below 512: 10  -> classes 4, (1500*10 - 1000*4)/500 = 22
 *   movsb          from 0: 2, from 32: 3       -> classes (1500*2 - 500*3)/1000 = 1.5, 3
 *   erms_threshold below 32: 6, below 512: 11  -> classes 6, (1500*11 - 1000*6)/500 = 21
 *   the policy at T=32 over both: 9            -> split 9 - (1000*6 + 500*3)/1500 = 4
 */
static void short_mix(struct est_mix *mix, const double *calls)
{
	memset(mix, 0, sizeof(*mix));
	mix->cutoff = EST_MIX_CUTOFF;
	est_mix_choose_classes(mix, calls);
	mix->applied = true;
	mix->nr_impls = 3;
	mix->impls[0] = (struct est_mix_impl){ .impl = "memcpy_orig",
					       .span = EST_MIX_SPAN_BELOW,
					       .nr_samples = 2,
					       .samples = { { .lo = 0, .hi = 32, .penalty_ns = 4 },
							    { .lo = 0,
							      .hi = 512,
							      .shuffled_ns = 13,
							      .sorted_ns = 3,
							      .penalty_ns = 10 } } };
	mix->impls[1] =
		(struct est_mix_impl){ .impl = "movsb",
				       .span = EST_MIX_SPAN_FROM,
				       .nr_samples = 2,
				       .samples = { { .lo = 0, .hi = 512, .penalty_ns = 2 },
						    { .lo = 32, .hi = 512, .penalty_ns = 3 } } };
	mix->impls[2] =
		(struct est_mix_impl){ .impl = "erms_threshold",
				       .span = EST_MIX_SPAN_BELOW,
				       .nr_samples = 2,
				       .samples = { { .lo = 0, .hi = 32, .penalty_ns = 6 },
						    { .lo = 0, .hi = 512, .penalty_ns = 11 } } };
	mix->split.impl = "erms_threshold";
	mix->split.samples[1] =
		(struct est_mix_sample){ .lo = 0, .hi = 512, .t = 32, .penalty_ns = 9 };
	est_mix_derive(mix, EST_MEMCPY);
}

/* input() of the fixture plus 500 calls of 100 B (bucket [96,104)). */
static void input_short(struct est_input *in)
{
	input(in, false);
	in->sites[0].n[cp_bucket_of(100)] = 500;
	in->sites[0].bytes[cp_bucket_of(100)] = 50000;
}

static void class_penalties_derived(void **state)
{
	struct est_family_result fr = { .family = EST_MEMCPY };
	double calls[CP_NBUCKETS];
	struct est_mix mix;

	bucket_calls(calls, (const uint64_t[]){ 16, 100, 1100, 4096 },
		     (const double[]){ 1000, 500, 100, 10 }, 4);
	fr.bucket_calls = calls;
	short_mix(&mix, fr.bucket_calls);
	assert_int_equal(mix.classes.nr, 2);
	assert_int_equal(mix.classes.edges[1], 32);
	NEAR(mix.impls[0].class_penalty_ns[0], 4);
	NEAR(mix.impls[0].class_penalty_ns[1], 22);
	NEAR(mix.impls[1].class_penalty_ns[0], 1.5);
	NEAR(mix.impls[1].class_penalty_ns[1], 3);
	NEAR(mix.impls[2].class_penalty_ns[0], 6);
	NEAR(mix.impls[2].class_penalty_ns[1], 21);
	NEAR(mix.split.penalty_ns[1], 4);
	/* Over every short length: the widest sample (below the cutoff; from 0). */
	NEAR(mix.impls[0].penalty_ns, 10);
	NEAR(mix.impls[0].shuffled_ns, 13);
	NEAR(mix.impls[1].penalty_ns, 2);
	/* Timed once over every short length (today's code, neither side): the same everywhere. */
	mix.impls[3] =
		(struct est_mix_impl){ .impl = "clear_user_erms",
				       .span = EST_MIX_SPAN_ALL,
				       .nr_samples = 1,
				       .samples = { { .lo = 0, .hi = 512, .penalty_ns = 7 } } };
	mix.nr_impls = 4;
	est_mix_derive(&mix, EST_MEMCPY);
	NEAR(mix.impls[3].class_penalty_ns[0], 7);
	NEAR(mix.impls[3].class_penalty_ns[1], 7);
	NEAR(mix.impls[0].class_penalty_ns[1], 22);
	/* Each length its class's penalty; nothing from the cutoff on. */
	NEAR(est_mix_penalty(&mix, "memcpy_orig", 16), 4);
	NEAR(est_mix_penalty(&mix, "memcpy_orig", 100), 22);
	NEAR(est_mix_penalty(&mix, "memcpy_orig", 600), 0);
	/*
	 * The split: 4 at the inner edge, 0 at 0 and from the cutoff, and in between in
	 * proportion to the short calls below T: none below 16 (so T=16 splits nothing), all
	 * 16 B calls below 17, none between 32 and 96, all below 104.
	 */
	NEAR(est_mix_split_at(&mix.classes, mix.split.penalty_ns, 0), 0);
	NEAR(est_mix_split_at(&mix.classes, mix.split.penalty_ns, 16), 0);
	NEAR(est_mix_split_at(&mix.classes, mix.split.penalty_ns, 17), 4);
	NEAR(est_mix_split_at(&mix.classes, mix.split.penalty_ns, 32), 4);
	NEAR(est_mix_split_at(&mix.classes, mix.split.penalty_ns, 64), 4);
	NEAR(est_mix_split_at(&mix.classes, mix.split.penalty_ns, 100), 2);
	NEAR(est_mix_split_at(&mix.classes, mix.split.penalty_ns, 128), 0);
	NEAR(est_mix_split_at(&mix.classes, mix.split.penalty_ns, 4096), 0);
}

/*
 * Per-class penalties in the totals (the fixture's model: d_lo = d_hi = 1; today memcpy_orig).
 * Pure costs: 16 B orig 10, movsb 30; 100 B orig 13.6, movsb 31.8; 1100 B orig 113.6,
 * movsb 81.8; 4096 B orig 413.2, movsb 231.6. Short calls (1500) get, by class (16 B | 100 B):
 *   today   1000*(10 + 4) + 500*(13.6 + 22) + 100*113.6 + 10*413.2             = 47292
 *   T=32    1000*(10 + 1 + 6) + 500*(31.8 + 1 + 3) + 1500*4 + 100*82.8 + 10*232.6 = 51506
 *           (short calls: the policy's pure 27400 + 1500 * its sample's 9 = 40900)
 *   T=64    the same calls on each side as T=32, the same split                  = 51506
 *   T=128   1000*17 + 500*(13.6 + 1 + 21) + 0 (every short call below T) + 8280 + 2326
 *                                                                              = 45406
 *           (short calls: the pure 18300 + 1500 * erms_threshold's 11 below 512 = 34800)
 *   T=100   inside [96,104): half its calls below T, at 97.5 and 101.5 B, split 2:
 *           1000*(17 + 2) + 500*(0.5*(13.35 + 1 + 21) + 0.5*(31.875 + 1 + 3) + 2)
 *           + 8280 + 2326                                                       = 48412.25
 *   T=0     1000*(30 + 1 + 1.5) + 500*35.8 + 8280 + 2326                        = 61006
 *   T=2048  1000*17 + 500*35.6 + 100*114.6 + 10*232.6                          = 48586
 *   never   1000*17 + 500*35.6 + 100*114.6 + 10*414.2                          = 50402
 *   always  1000*31.5 + 500*34.8 + 100*81.8 + 10*231.6                          = 59396
 *   oracle  1000*min(14, 31.5) + 500*min(35.6, 34.8) + 8180 + 2316              = 41896
 * The oracle now takes REP MOVSB at 100 B: the loop's penalty there (22) is its class's, not
 * the average over all short calls.
 */
static void per_class_totals(void **state)
{
	struct est_family_result r, pure;
	struct costmodel *m = model(true, 0);
	struct est_options o;
	struct est_input in;
	struct est_mix mix;
	char why[128];

	est_options_default(&o);
	assert_int_equal(est_thresholds_parse("0,32,64,100,128,2048,never", &o, why, sizeof(why)),
			 0);
	input_short(&in);
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &pure), 0);
	short_mix(&mix, pure.bucket_calls);
	o.mix = &mix;
	assert_int_equal(est_family_evaluate(&in, EST_MEMCPY, m, "t", &o, &r), 0);
	assert_string_equal(r.today_impl, "memcpy_orig");
	NEAR(row(&r, "today")->total_ns, 47292);
	NEAR(row(&r, "T=32")->total_ns, 51506);
	NEAR(row(&r, "T=64")->total_ns, 51506);
	NEAR(row(&r, "T=128")->total_ns, 45406);
	NEAR(row(&r, "T=100")->total_ns, 48412.25);
	NEAR(row(&r, "T=0")->total_ns, 61006);
	NEAR(row(&r, "T=2048")->total_ns, 48586);
	NEAR(row(&r, "never")->total_ns, 50402);
	NEAR(row(&r, "always")->total_ns, 59396);
	NEAR(row(&r, "oracle")->total_ns, 41896);
	assert_true(r.split_buckets); /* T=100 */
	/* Only the short calls change: by erms_threshold's penalties, 1000*6 + 500*21 = 1500*11. */
	NEAR(row(&r, "T=2048")->total_ns - row(&pure, "T=2048")->total_ns, 1500 * 11);
	est_family_result_free(&r);
	est_family_result_free(&pure);
	est_input_free(&in);
	costmodel_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mix_correction_adds_penalties),
		cmocka_unit_test(classes_chosen),
		cmocka_unit_test(class_penalties_derived),
		cmocka_unit_test(per_class_totals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
