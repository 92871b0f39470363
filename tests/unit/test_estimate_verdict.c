// SPDX-License-Identifier: GPL-2.0
/*
 * test_estimate_verdict.c: a measured difference counts only outside the A/A control's band
 * (today's code against itself); without a measurement of the mix there is no verdict
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "estimate/estimate_result.h"
#include "estimate/estimate_verdict.h"

static struct est_row make_row(enum policy_kind kind, uint64_t t, double d, double lo, double hi)
{
	struct est_row w;

	memset(&w, 0, sizeof(w));
	w.pol.kind = kind;
	w.pol.threshold = t;
	snprintf(w.pol.name, sizeof(w.pol.name), kind == POLICY_TODAY ? "today" : "T=%llu",
		 (unsigned long long)t);
	w.delta_pct = d;
	w.ci_low = lo;
	w.ci_high = hi;
	w.measured = kind != POLICY_TODAY;
	return w;
}

/* glibc's 1-16 KiB mix on a disturbed host (bench/glibc_truth.sh, 2026-12-06). */
static void saving_inside_the_control(void **state)
{
	struct est_row rows[3] = { make_row(POLICY_TODAY, 0, 0, 0, 0),
				   make_row(POLICY_THRESHOLD, 513, -0.30, -3.90, -0.07),
				   make_row(POLICY_THRESHOLD, 8192, 6.26, 6.08, 13.98) };
	struct mixmeas m;
	struct est_family_result fr;

	(void)state;
	memset(&m, 0, sizeof(m));
	memset(&fr, 0, sizeof(fr));
	m.control = (struct mixmeas_figure){ -0.10, -5.89, 0.09 };
	fr.rows = rows;
	fr.nr_rows = 3;
	fr.best = 1;
	fr.meas = &m;
	assert_false(est_row_saves(&fr, &rows[1]));
	assert_int_equal(est_verdict(&fr), EST_VERDICT_NO_DIFFERENCE);
	/* The same row beside a quiet control saves. */
	m.control = (struct mixmeas_figure){ -0.02, -0.06, 0.05 };
	assert_true(est_row_saves(&fr, &rows[1]));
	assert_int_equal(est_verdict(&fr), EST_VERDICT_SAVES);
	/* A row the measurement lacks is never the verdict: the measured rows alone decide. */
	m.control = (struct mixmeas_figure){ -0.10, -5.89, 0.09 };
	rows[1].measured = false;
	assert_int_equal(est_verdict(&fr), EST_VERDICT_KEEP_TODAY);
	/* Without a measurement there is no verdict; the figures still read as a saving. */
	fr.meas = NULL;
	rows[1].measured = true;
	assert_int_equal(est_verdict(&fr), EST_VERDICT_NOT_MEASURED);
	assert_int_equal(est_figures_read(&fr), EST_VERDICT_SAVES);
}

/* No measurement: no verdict, the command that measures the mix, and no line to ship. */
static void not_measured(void **state)
{
	struct est_row rows[2] = { make_row(POLICY_TODAY, 0, 0, 0, 0),
				   make_row(POLICY_THRESHOLD, 4096, -45.96, -46.79, -45.12) };
	const struct est_family_impls glibc = { .glibc = true,
						.tunable = "glibc.cpu.x86_rep_movsb_threshold" };
	struct est_family_result fr;
	char buf[EST_VERDICT_TEXT_LEN];

	(void)state;
	memset(&fr, 0, sizeof(fr));
	rows[1].measured = false;
	fr.rows = rows;
	fr.nr_rows = 2;
	fr.best = 1;
	fr.impls = &glibc;
	fr.today_knob = 2048;
	fr.model_cpu = "AMD Ryzen 9 9950X";
	snprintf(fr.measure_cmd, sizeof(fr.measure_cmd),
		 "copyprof calibrate -i cm.json --mix app.json -o cm.json");
	assert_int_equal(est_verdict(&fr), EST_VERDICT_NOT_MEASURED);
	assert_string_equal(est_verdict_name(est_verdict(&fr)), "not_measured");
	est_verdict_text(&fr, buf, sizeof(buf));
	assert_string_equal(buf, "none: the figures are modelled; measure this mix on AMD Ryzen 9 "
				 "9950X with: copyprof calibrate -i cm.json --mix app.json -o "
				 "cm.json");
	assert_int_equal(est_glibc_advice(&fr, buf, sizeof(buf)), EST_GLIBC_UNMEASURED);
	assert_string_equal(buf, "");
	fr.model_published = true;
	est_verdict_text(&fr, buf, sizeof(buf));
	assert_string_equal(buf, "none: modelled on the published curves of AMD Ryzen 9 9950X; a "
				 "verdict needs a paired measurement of this mix on that CPU");
}

/* Every row dearer than today, but one only within the control's band: no difference. */
static void cost_inside_the_control(void **state)
{
	struct est_row rows[3] = { make_row(POLICY_TODAY, 0, 0, 0, 0),
				   make_row(POLICY_THRESHOLD, 513, 1.0, 0.4, 1.6),
				   make_row(POLICY_THRESHOLD, 8192, 6.0, 5.5, 6.5) };
	struct mixmeas m;
	struct est_family_result fr;

	(void)state;
	memset(&m, 0, sizeof(m));
	memset(&fr, 0, sizeof(fr));
	m.control = (struct mixmeas_figure){ 0.1, -0.2, 0.3 };
	fr.rows = rows;
	fr.nr_rows = 3;
	fr.meas = &m;
	assert_true(est_row_costs(&fr, &rows[1]));
	assert_int_equal(est_verdict(&fr), EST_VERDICT_KEEP_TODAY);
	m.control = (struct mixmeas_figure){ 0.3, -0.2, 0.9 };
	assert_false(est_row_costs(&fr, &rows[1]));
	assert_true(est_row_costs(&fr, &rows[2]));
	assert_int_equal(est_verdict(&fr), EST_VERDICT_NO_DIFFERENCE);
}

/* "No difference" says which rows differ: none, or those beyond the noise (not "none differs"). */
static void no_difference_words(void **state)
{
	struct est_row rows[6] = { make_row(POLICY_TODAY, 0, 0, 0, 0),
				   make_row(POLICY_THRESHOLD, 0, 0.87, 0.23, 1.19),
				   make_row(POLICY_THRESHOLD, 32, 70.7, 63.0, 71.3),
				   make_row(POLICY_THRESHOLD, 64, 78.3, 71.6, 79.5),
				   make_row(POLICY_THRESHOLD, 128, 86.4, 78.4, 87.1),
				   make_row(POLICY_THRESHOLD, 256, 89.2, 80.7, 90.2) };
	struct mixmeas m;
	struct est_family_result fr;
	char buf[256];

	(void)state;
	memset(&m, 0, sizeof(m));
	memset(&fr, 0, sizeof(fr));
	m.control = (struct mixmeas_figure){ 0.06, -1.77, 0.61 }; /* service A, a contended core */
	fr.rows = rows;
	fr.nr_rows = 6;
	fr.meas = &m;
	assert_int_equal(est_verdict(&fr), EST_VERDICT_NO_DIFFERENCE);
	est_verdict_text(&fr, buf, sizeof(buf));
	assert_string_equal(buf, "no threshold saves against today's code beyond the measurement "
				 "noise (T=0 within it; T=32, T=64, T=128 and 1 more cost more)");
	fr.nr_rows = 3;
	est_no_difference_words(&fr, "today's movsb", buf, sizeof(buf));
	assert_string_equal(buf, "no threshold saves against today's movsb beyond the measurement "
				 "noise (T=0 within it; T=32 costs more)");
	fr.nr_rows = 2;
	est_verdict_text(&fr, buf, sizeof(buf));
	assert_string_equal(buf,
			    "no threshold differs from today's code beyond the measurement noise");
}

/*
 * A mix measured in several conditions (constructed figures, the shape glibc's knob measured on
 * an Intel Xeon: T=4096 -19.5% with 8 KiB a side, +2.2% at 256 KiB): a verdict only where every
 * condition reads the same; else "depends", each condition's figure and interval, nothing to
 * ship.
 */
static void matrix(void **state)
{
	struct est_row rows[2] = { make_row(POLICY_TODAY, 0, 0, 0, 0),
				   make_row(POLICY_THRESHOLD, 4096, 2.2, 2.0, 2.3) };
	const struct est_family_impls glibc = { .glibc = true,
						.tunable = "glibc.cpu.x86_rep_movsb_threshold" };
	struct mixmeas big, small;
	struct mixmeas_row br[2], sr[2];
	struct est_family_result fr;
	char buf[EST_VERDICT_TEXT_LEN];
	const struct policy_key t = { POLICY_THRESHOLD, 4096 };

	(void)state;
	memset(&big, 0, sizeof(big));
	memset(br, 0, sizeof(br));
	br[1].key = t;
	br[1].quiet = (struct mixmeas_figure){ 2.2, 2.0, 2.3 };
	big.rows = br;
	big.nr_rows = 2;
	big.cache = "warm";
	big.ws_bytes = 262144;
	small = big;
	memcpy(sr, br, sizeof(sr));
	sr[1].quiet = (struct mixmeas_figure){ -19.5, -19.6, -18.9 };
	small.rows = sr;
	small.ws_bytes = 8192;
	memset(&fr, 0, sizeof(fr));
	fr.rows = rows;
	fr.nr_rows = 2;
	fr.best = 0;
	fr.at = 1;
	fr.meas = &big;
	fr.impls = &glibc;
	fr.today_knob = 2112;
	fr.nr_cells = 2;
	fr.cells[0] = (struct est_cell){ .meas = &big, .kind = EST_VERDICT_KEEP_TODAY };
	fr.cells[1] = (struct est_cell){ .meas = &small, .kind = EST_VERDICT_SAVES, .best = t };
	assert_false(est_verdict_holds_across(&fr));
	assert_int_equal(est_verdict(&fr), EST_VERDICT_DEPENDS);
	assert_string_equal(est_verdict_name(EST_VERDICT_DEPENDS), "depends");
	est_verdict_text(&fr, buf, sizeof(buf));
	assert_string_equal(buf, "it depends on the working set: warm, 256 KiB a side: T=4096 "
				 "costs 2.20% (95% CI 2.00 .. 2.30); warm, 8 KiB a side: T=4096 "
				 "saves 19.50% (95% CI 18.90 .. 19.60)");
	assert_int_equal(est_glibc_advice(&fr, buf, sizeof(buf)), EST_GLIBC_DEPENDS);
	/* The same verdict everywhere holds, with the shown condition's figures. */
	fr.cells[1].kind = EST_VERDICT_KEEP_TODAY;
	fr.cells[1].best = (struct policy_key){ POLICY_TODAY, 0 };
	assert_true(est_verdict_holds_across(&fr));
	assert_int_equal(est_verdict(&fr), EST_VERDICT_KEEP_TODAY);
	assert_int_equal(est_glibc_advice(&fr, buf, sizeof(buf)), EST_GLIBC_KEEP);
	/* No difference in one, keep today's code in the other: keep today's code, the weaker. */
	fr.cells[1].kind = EST_VERDICT_NO_DIFFERENCE;
	assert_true(est_verdict_holds_across(&fr));
	assert_int_equal(est_verdict(&fr), EST_VERDICT_NO_DIFFERENCE);
	est_verdict_text(&fr, buf, sizeof(buf));
	assert_string_equal(buf,
			    "keep today's code: no threshold saves in any of the 2 conditions "
			    "measured (warm, 256 KiB a side: every threshold costs more; warm, "
			    "8 KiB a side: none saves beyond the noise)");
	assert_int_equal(est_glibc_advice(&fr, buf, sizeof(buf)), EST_GLIBC_KEEP);
	/* A saving in one, no difference in the other: which to ship depends. */
	fr.cells[1].kind = EST_VERDICT_SAVES;
	fr.cells[1].best = t;
	fr.cells[0].kind = EST_VERDICT_NO_DIFFERENCE;
	assert_int_equal(est_verdict(&fr), EST_VERDICT_DEPENDS);
	/* A saving in both, but by other thresholds: which to ship depends. */
	fr.cells[0].kind = EST_VERDICT_SAVES;
	fr.cells[0].best = (struct policy_key){ POLICY_THRESHOLD, 8192 };
	fr.cells[1].kind = EST_VERDICT_SAVES;
	fr.cells[1].best = t;
	assert_int_equal(est_verdict(&fr), EST_VERDICT_DEPENDS);
	/* A condition that measured nothing neither agrees nor disagrees: the others decide. */
	fr.cells[0].kind = EST_VERDICT_NOT_MEASURED;
	assert_true(est_verdict_holds_across(&fr));
	assert_int_equal(est_verdict(&fr), est_figures_read(&fr));
	fr.cells[0].kind = EST_VERDICT_KEEP_TODAY;
	fr.cells[1].kind = EST_VERDICT_NOT_MEASURED;
	assert_true(est_verdict_holds_across(&fr));
	assert_int_equal(est_verdict(&fr), EST_VERDICT_KEEP_TODAY);
	fr.cells[1].kind = EST_VERDICT_NO_DIFFERENCE;
	fr.cells[1].best = t;
	/* One condition: its own verdict, as before the matrix. */
	fr.nr_cells = 1;
	assert_int_equal(est_verdict(&fr), EST_VERDICT_KEEP_TODAY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matrix),
		cmocka_unit_test(saving_inside_the_control),
		cmocka_unit_test(cost_inside_the_control),
		cmocka_unit_test(no_difference_words),
		cmocka_unit_test(not_measured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
