// SPDX-License-Identifier: GPL-2.0
/* estimate_text.c: estimate's text output: per family a policy table, the best T, per site */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "estimate_dist.h"
#include "estimate_lengths.h"
#include "estimate_order.h"
#include "estimate_family.h"
#include "estimate_input.h"
#include "estimate_options.h"
#include "estimate_summary.h"
#include "estimate_footprint.h"
#include "estimate_matrix.h"
#include "estimate_program.h"
#include "estimate_text.h"
#include "profile/profile_glibc.h"
#include "estimate_verdict.h"
#include "lib/count_sum.h"
#include "lib/num_format.h"

/*
 * The measurement's batches: each in memory mapped afresh and, since copyprof measured each in
 * a process of its own, with the code at code_places places (one place: the process could not
 * be started, or address-space randomisation is off).
 */
static const char *batches_words(const struct mixmeas *mm, char *buf, size_t len)
{
	unsigned long long b = mm->batches, p = mm->code_places;

	if (!p)
		snprintf(buf, len, "%llu batches, each in memory mapped afresh", b);
	else if (p > 1)
		snprintf(buf, len,
			 "%llu batches, each in memory mapped afresh and a process of its own, "
			 "the code at %llu places",
			 b, p);
	else
		snprintf(buf, len,
			 "%llu batches, each in memory mapped afresh, the code in one place "
			 "(docs/estimate.md#batches)",
			 b);
	return buf;
}

/* Where the answer comes from: the paired measurement and its conditions, or the model only. */
static void print_source(FILE *f, const struct est_family_result *fr)
{
	const struct mixmeas *mm = fr->meas;
	char ws[24], cold[24], n[NUM_FORMAT_LEN], c[NUM_FORMAT_LEN], apart[64], batches[160],
		lengths[200];
	/* Since batches ran in processes of their own, each judged against its own fastest. */
	const char *fastest = mm && mm->code_places ? "its batch's fastest" : "its fastest";

	if (!mm) {
		fprintf(f, "  measured: none (%s)\n  every figure below is modelled\n",
			fr->meas_why);
		est_dist_print(f, fr, "  ");
		return;
	}
	fprintf(f,
		"  measured: a paired replay of this mix on CPU %d, %s rounds of %s calls in "
		"%.1f s\n",
		mm->cpu, num_format(mm->rounds, n), num_format(mm->chunk_calls, c), mm->time_s);
	if (mm->sittings > 1)
		fprintf(f,
			"    in %llu sittings, %s: each figure the median of theirs, its interval "
			"from the lowest low end to the highest high end, spanning the states of "
			"the "
			"machine they met\n",
			(unsigned long long)mm->sittings,
			mixmeas_sittings_apart(mm, apart, sizeof(apart)));
	fprintf(f,
		"    every round: each policy on the same calls, each pass in %s, "
		"after %s untimed calls; %s\n",
		mm->order_runs ? "the recorded order (its runs in an order of its own)"
			       : "an order of its own",
		num_format(mm->warmup_calls, n), batches_words(mm, batches, sizeof(batches)));
	fprintf(f, "    cache %s: random offsets in %s per side", mm->cache,
		num_format_bytes(mm->ws_bytes, ws, sizeof(ws)));
	if (mm->cold_bytes)
		fprintf(f, ", cold lines from %s",
			num_format_bytes(mm->cold_bytes, cold, sizeof(cold)));
	fprintf(f, "; alignments %s\n",
		!strcmp(mm->alignment, "recorded") ? "as the profile recorded them"
						   : "uniform (the input records none)");
	fprintf(f, "    %s\n", est_lengths_words(mm, lengths, sizeof(lengths)));
	fprintf(f, "    %s\n", est_order_words(mm, lengths, sizeof(lengths)));
	est_dist_print(f, fr, "    ");
	if (mm->calls_note)
		fprintf(f, "    %s\n", mm->calls_note);
	if (mm->quiet_tolerance > MIXMEAS_QUIET_TOLERANCE + 1e-9)
		fprintf(f,
			"    the answer: the %s rounds of fastest reference (within %.0f%% of %s: "
			"no window up to %.0f%% held enough; %s others)\n",
			num_format(mm->quiet_rounds, n), 100 * mm->quiet_tolerance, fastest,
			100 * MIXMEAS_QUIET_TOLERANCE, num_format(mm->busy_rounds, c));
	else
		fprintf(f,
			"    the answer: the %s rounds on a quiet core (its reference within "
			"%.0f%% of %s; %s on a contended one)\n",
			num_format(mm->quiet_rounds, n), 100 * mm->quiet_tolerance, fastest,
			num_format(mm->busy_rounds, c));
	if (mixmeas_seldom_quiet(mm))
		fprintf(f,
			"    note: the core was seldom quiet (%.1f%% of the rounds): the figures "
			"may "
			"lean towards a contended core's; measure again when the machine is "
			"quieter\n",
			100.0 * (double)mm->quiet_rounds / (double)mm->rounds);
	fprintf(f,
		"  noise: today's code timed twice in each round: %+.2f%% (95%% CI %+.2f .. "
		"%+.2f)\n",
		mm->control.delta_pct, mm->control.ci_low, mm->control.ci_high);
	if (fr->unmeasured)
		fprintf(f,
			"  note: %zu polic%s not measured (other thresholds): modelled only, and "
			"left out of the verdict\n",
			fr->unmeasured, fr->unmeasured == 1 ? "y was" : "ies were");
}

/* glibc's version and root, its rule's threshold for this CPU, what its default already does. */
static void print_glibc(FILE *f, const struct est_family_result *fr, const struct est_input *in)
{
	const struct est_glibc_today *t = &fr->glibc;
	const struct profile_glibc *g = in->glibc;

	if (t->major)
		fprintf(f, "  glibc %u.%u%s%s%s%s%s%s\n", t->major, t->minor,
			g && g->release ? " (" : "", g && g->release ? g->release : "",
			g && g->release ? ")" : "", g && g->root ? ", root " : "",
			g && g->root ? g->root : "",
			t->rules_exact ? "" : ": a version copyprof does not know");
	if (!t->major && t->from != EST_GLIBC_FROM_RULE)
		return; /* a profile from before versions were recorded: its thresholds are */
	if (t->rule.known)
		fprintf(f, "  glibc %u.%u's rule for this CPU: %s=%llu (%s)\n", t->rules_major,
			t->rules_minor, fr->impls->tunable, (unsigned long long)t->rule.value,
			t->rule.why);
	else
		fprintf(f, "  glibc %u.%u's rule for this CPU: %s unknown (%s)\n", t->rules_major,
			t->rules_minor, fr->impls->tunable, t->rule.why);
	if (t->note[0])
		fprintf(f, "  %s\n", t->note);
}

static void print_head(FILE *f, const struct est_report *r, const struct est_family_result *fr)
{
	const struct est_input *in = r->in;
	size_t i, sites = 0;
	char n[COUNT_SUM_LEN];

	for (i = 0; i < in->nr_sites; i++)
		sites += in->sites[i].family == fr->family;

	if (fr->samples > 0)
		fprintf(f, "\n%s: %s time-weighted samples (%zu site%s)",
			est_family(fr->family)->name,
			count_sum_format(count_sum_from_double(fr->samples), n), sites,
			sites == 1 ? "" : "s");
	else if (est_input_counted(in, fr->family))
		fprintf(f, "\n%s: %s calls (%zu site%s)", est_family(fr->family)->name,
			count_sum_format(count_sum_from_double(fr->calls), n), sites,
			sites == 1 ? "" : "s");
	else
		fprintf(f, "\n%s: a size distribution (relative weights, %zu site%s)",
			est_family(fr->family)->name, sites, sites == 1 ? "" : "s");
	if (fr->share >= 0)
		fprintf(f, ", %.2f%% of the CPU time sampled", 100 * fr->share);
	if (in->duration_s > 0)
		fprintf(f, ", %.2f s recorded", in->duration_s);
	fprintf(f, "\n  today: %s (%s)%s\n", fr->today_impl, fr->today_why,
		fr->today_approx ? " [approximation]" : "");
	if (fr->today_src.rule[0])
		fprintf(f, "  glibc's IFUNC: %s\n", fr->today_src.rule);
	if (fr->impls->glibc)
		print_glibc(f, fr, r->in);
	if (fr->refused_thresholds)
		fprintf(f,
			"  refused: %zu of --thresholds, which glibc would ignore (it takes %s "
			"%llu "
			"to %llu)\n",
			fr->refused_thresholds,
			fr->knob_strict_min ? "values above" : "values from",
			(unsigned long long)fr->knob_min, (unsigned long long)fr->knob_max);
	if (fr->impls->dispatch) {
		fprintf(f,
			"  modelled dispatch cost of a threshold (%s vs %s, %s): %+.2f ns below "
			"T%s, "
			"%+.2f ns from T%s\n",
			fr->impls->dispatch, fr->impls->loop, fr->impls->string, fr->dispatch_lo_ns,
			fr->dispatch_lo_measured ? "" : " (not measured)", fr->dispatch_hi_ns,
			fr->dispatch_hi_measured ? "" : " (not measured)");
		if (fr->dispatch_clamped)
			fprintf(f,
				"    (the curves put it at %+.2f ns below T, %+.2f ns from T: "
				"below "
				"0 within their runs' spread, so noise, taken as 0)\n",
				fr->dispatch_lo_raw_ns, fr->dispatch_hi_raw_ns);
	} else if (fr->impls->glibc)
		fprintf(f,
			"  the threshold's compare is in glibc's code under every policy alike\n");
	else
		fprintf(f, "  dispatch cost of a threshold: not replicated for %s, taken as 0\n",
			est_family(fr->family)->name);
	print_source(f, fr);
}

/* The model against the paired measurement, over the rows both have (today aside). */
static void print_bias(FILE *f, const struct est_family_result *fr)
{
	double sum = 0, sq = 0, worst = 0;
	const char *at = NULL;
	size_t i, n = 0;

	for (i = 1; i < fr->nr_rows; i++) {
		const struct est_row *w = &fr->rows[i];
		double b = w->model_pct - w->delta_pct;

		if (!w->measured)
			continue;
		sum += b;
		sq += b * b;
		n++;
		if (fabs(b) >= fabs(worst)) {
			worst = b;
			at = w->pol.name;
		}
	}
	if (!n)
		return;
	fprintf(f,
		"  the model's bias on this mix, against the measurement: mean %+.2f points, RMS "
		"%.2f, largest %+.2f at %s\n",
		sum / (double)n, sqrt(sq / (double)n), worst, at);
}

/* Where the modelled rows' intervals come from when the curves carry no noise. */
static void print_model_interval(FILE *f, const struct est_family_result *fr)
{
	bool none = false, some = false;
	size_t i;

	if (fr->curves_noisy || (fr->meas && !fr->unmeasured))
		return;
	for (i = 1; i < fr->nr_rows; i++) {
		const struct est_row *w = &fr->rows[i];

		if (w->measured || fabs(w->delta_pct) < 1e-9)
			continue;
		none |= !w->ci_known;
		some |= w->ci_known;
	}
	if (none)
		fprintf(f, "  (no interval: the curves carry no noise%s)\n",
			some ? "; the rows with one hold counting error only" : "");
	else if (some)
		fprintf(f,
			"  (the modelled intervals hold counting error only: the curves carry no "
			"noise)\n");
}

static void print_table(FILE *f, const struct est_report *r, const struct est_family_result *fr)
{
	bool per_s = r->in->duration_s > 0, tot = est_input_counted(r->in, fr->family);
	bool share = fr->share >= 0, meas = fr->meas != NULL;
	enum est_verdict_kind v = est_verdict(fr);
	bool mark = v == EST_VERDICT_SAVES || v == EST_VERDICT_KEEP_TODAY;
	char t[24];
	size_t i;

	fprintf(f, "\n  %-8s %7s %9s", "policy", "T", "ns/call");
	if (tot)
		fprintf(f, " %12s %12s", "total ms", "delta ms");
	if (per_s)
		fprintf(f, " %10s", "copy us/s");
	if (share)
		fprintf(f, " %7s", "CPU %");
	if (meas)
		fprintf(f, " %9s  %-18s %9s %7s\n", "measured", "95% CI", "modelled", "bias");
	else
		fprintf(f, " %9s  %s\n", "modelled", "95% CI");
	for (i = 0; i < fr->nr_rows; i++) {
		const struct est_row *w = &fr->rows[i];
		char ci[80] = "";

		if (w->pol.kind == POLICY_THRESHOLD)
			est_threshold_str(w->pol.threshold, t, sizeof(t));
		else
			snprintf(t, sizeof(t), "-");
		fprintf(f, "  %-8s %7s %9.2f", w->pol.name, t, w->ns_per_call);
		if (tot)
			fprintf(f, " %12.3f %12.3f", w->total_ns / 1e6, w->delta_ns / 1e6);
		if (per_s)
			fprintf(f, " %10.2f", w->total_ns / 1e3 / r->in->duration_s);
		if (share)
			fprintf(f, " %7.3f", 100 * fr->share * w->total_ns / fr->rows[0].total_ns);
		if (i && (!meas || w->measured) && !w->ci_known)
			snprintf(ci, sizeof(ci), "no interval");
		else if (i && (!meas || w->measured))
			est_interval_str(w->ci_low, w->ci_high, 2, " .. ", "", ci, sizeof(ci));
		if (meas && !w->measured)
			fprintf(f, " %9s  %-18s", "-", "");
		else if (meas)
			fprintf(f, " %+8.2f%%  %-18s", w->delta_pct, ci);
		else
			fprintf(f, " %+8.2f%%%s%s", w->delta_pct, *ci ? "  " : "", ci);
		if (meas)
			fprintf(f, " %+8.2f%%", w->model_pct);
		if (meas && w->measured && i)
			fprintf(f, " %+7.2f", w->model_pct - w->delta_pct);
		fprintf(f, "%s\n", (int)i == fr->best && mark ? "  <- best" : "");
	}
	fprintf(f, "  (ns/call, ms%s: modelled from the cost model's per-length curves%s)\n",
		share ? " and CPU %" : "",
		!meas ? ""
		: fr->meas->sittings > 1
			? "; measured: the paired replay's sittings pooled, its 95% "
			  "CI spanning theirs, each a bootstrap over its rounds and "
			  "batches; bias: modelled - measured, points"
			: "; measured: the paired replay, its 95% CI a bootstrap over "
			  "this run's rounds and batches, not over states of "
			  "the machine that outlast the run (measure again minutes "
			  "later, or calibrate --sittings 2: the sittings pool; "
			  "docs/estimate.md#sittings); "
			  "bias: modelled - measured, points");
	print_model_interval(f, fr);
	if (meas)
		print_bias(f, fr);
}

/* The row of threshold 0, or -1. */
static int t0_row(const struct est_family_result *fr)
{
	size_t i;

	for (i = 0; i < fr->nr_rows; i++)
		if (fr->rows[i].pol.kind == POLICY_THRESHOLD && fr->rows[i].pol.threshold == 0)
			return (int)i;
	return -1;
}

static void print_best(FILE *f, const struct est_family_result *fr)
{
	const struct est_row *b = &fr->rows[fr->best];
	char lo[24], hi[24], v[EST_VERDICT_TEXT_LEN];
	int t0 = t0_row(fr);

	est_verdict_text(fr, v, sizeof(v));
	fprintf(f, "\n  verdict: %s\n", v);
	if (fr->footprint_bytes) {
		char fp[256];

		fprintf(f, "  conditions: %s\n", est_footprint_words(fr, fp, sizeof(fp)));
	}
	if (fr->nr_cells > 1) {
		char all[EST_VERDICT_TEXT_LEN], shown[96];

		est_matrix_conditions_text(fr, all, sizeof(all));
		fprintf(f, "  conditions: measured in %zu (%s); %s%s; the rows above are %s\n",
			fr->nr_cells, all,
			est_verdict(fr) == EST_VERDICT_DEPENDS
				? (fr->footprint_bytes ? "the verdict differs between them, and "
							 "the footprint's "
							 "own condition was not measured"
						       : "the verdict differs between them: the "
							 "profile records "
							 "no footprint to choose one")
				: "the verdict holds in every one",
			est_matrix_measured_cells(fr) < fr->nr_cells ? " that measured something"
								     : "",
			mixmeas_condition(fr->meas, shown, sizeof(shown)));
	}
	est_threshold_str(fr->flat_lo, lo, sizeof(lo));
	est_threshold_str(fr->flat_hi, hi, sizeof(hi));
	if (est_verdict(fr) == EST_VERDICT_NOT_MEASURED) {
		const struct est_row *c = &fr->rows[fr->best > 0 ? fr->best : fr->at];
		char ci[112] = "no interval", b[96];

		if (c->ci_known)
			snprintf(ci, sizeof(ci), "95%% CI %s",
				 est_interval_str(c->ci_low, c->ci_high, 2, " .. ", "", b,
						  sizeof(b)));
		fprintf(f, "  modelled cheapest%s: %s, %+.2f%% (%s) vs today: not a verdict\n",
			fr->best > 0 ? "" : " other than today's code", c->pol.name, c->delta_pct,
			ci);
	} else if (fr->best > 0)
		fprintf(f, "  best: %s, %+.2f%% (95%% CI %+.2f .. %+.2f) vs today\n", b->pol.name,
			b->delta_pct, b->ci_low, b->ci_high);
	else
		fprintf(f,
			"  best: today's code; the cheapest other policy, %s, %+.2f%% (95%% CI "
			"%+.2f .. %+.2f)\n",
			fr->rows[fr->at].pol.name, fr->rows[fr->at].delta_pct,
			fr->rows[fr->at].ci_low, fr->rows[fr->at].ci_high);
	if (fr->best > 0 && est_verdict(fr) == EST_VERDICT_SAVES &&
	    b->pol.kind == POLICY_THRESHOLD) {
		if (fr->flat_lo == fr->flat_hi)
			fprintf(f,
				"  no other threshold is within %.0f%% of it (a sharp optimum)\n",
				100 * EST_FLAT_FRACTION);
		else
			fprintf(f,
				"  thresholds from %s to %s are within %.0f%% of it (a flat "
				"optimum)\n",
				lo, hi, 100 * EST_FLAT_FRACTION);
	}
	if (t0 >= 0 && fr->impls->dispatch)
		fprintf(f,
			"  dispatch cost: T=0 runs %s at every length as always does, behind the "
			"dispatch: %+.2f points (%s%s)\n",
			fr->impls->string, fr->rows[t0].delta_pct - fr->rows[1].delta_pct,
			fr->rows[t0].measured ? "measured" : "modelled",
			fr->rows[t0].ci_high > fr->rows[t0].ci_low &&
					est_row_within(&fr->rows[t0], fr->rows[1].delta_pct)
				? "; within the noise"
				: "");
	if (fr->oracle >= 0)
		fprintf(f,
			"  oracle (the cheaper implementation at every length; modelled): "
			"%+.2f%%\n",
			fr->rows[fr->oracle].delta_pct);
}

/*
 * The change for the program, not only its copies (estimate_program.h): for a recording of a
 * command (or one that holds the CPU time), not for a size table, a merge or the fleet.
 */
static void print_program(FILE *f, const struct est_report *r, const struct est_family_result *fr)
{
	struct est_program pg;
	char text[EST_PROGRAM_TEXT_LEN];

	if (!r->in->meta.cpu_known && !r->in->meta.command)
		return;
	est_program_figure(r->in, fr, est_program_row(fr), &pg);
	est_program_text(&pg, fr, text, sizeof(text));
	fprintf(f, "  the program: %s\n", text);
}

static void print_notes(FILE *f, const struct est_report *r, const struct est_family_result *fr)
{
	double maxb = 0;
	size_t i;

	for (i = 0; i < fr->nr_rows; i++)
		if (fr->rows[i].bound_ns > maxb)
			maxb = fr->rows[i].bound_ns;
	if (fr->rows[0].total_ns > 0)
		fprintf(f,
			"  costing buckets at their mean length: error at most %.3f%% of today\n",
			100 * maxb / fr->rows[0].total_ns);
	if (fr->beyond_calls > 0)
		fprintf(f,
			"  note: %.2f%% of calls are longer than the largest size measured; their "
			"cost is extrapolated\n",
			100 * fr->beyond_calls / fr->calls);
	if (fr->split_buckets)
		fprintf(f, "  note: a threshold inside a bucket: lengths there taken as uniform\n");
	if (fr->cache_note[0])
		fprintf(f, "  note: %s\n", fr->cache_note);
	if (fr->today_guessed)
		fprintf(f, "  note: the kernel version is unknown; today's code assumes a current "
			   "kernel\n");
}

/* The agreement --validate asks of the estimate: within max(3 points, 2 x the noise). */
#define VALIDATE_MIN_AGREEMENT 3.0

static void print_validation(FILE *f, const struct est_family_result *fr)
{
	const struct mixmeas *v = fr->validation;
	size_t i, bad = 0, n = 0;

	fprintf(f,
		"\n  validation (--validate MEASURED this now: an independent paired replay, new "
		"seed and buffers,\n  %llu rounds of %llu calls, CPU %d; the estimate above is not "
		"changed by it):\n    %-8s %10s %10s  %-18s %8s %8s\n",
		(unsigned long long)v->rounds, (unsigned long long)v->chunk_calls, v->cpu, "policy",
		"estimate", "replayed", "95% CI", "off", "allowed");
	for (i = 1; i < fr->nr_rows; i++) {
		const struct est_row *w = &fr->rows[i];
		double m = fr->validate_pct[i], off = w->delta_pct - m;
		double half = fmax((fr->validate_hi[i] - fr->validate_lo[i]) / 2,
				   w->measured ? (w->ci_high - w->ci_low) / 2 : 0);
		double allowed = fmax(VALIDATE_MIN_AGREEMENT, 2 * fmax(half, fr->noise_floor_pct));

		if (!isfinite(m))
			continue;
		n++;
		bad += fabs(off) > allowed;
		fprintf(f, "    %-8s %+9.2f%% %+9.2f%%  %+7.2f .. %+7.2f %+8.2f %8.2f%s\n",
			w->pol.name, w->delta_pct, m, fr->validate_lo[i], fr->validate_hi[i], off,
			allowed, fabs(off) > allowed ? "  DISAGREES" : "");
	}
	fprintf(f,
		"    noise: the replay's A/A control %+.2f%%; %zu of %zu policies agree within "
		"max(%.0f points, 2 x noise)\n",
		v->control.delta_pct, n - bad, n, VALIDATE_MIN_AGREEMENT);
	if (isfinite(fr->validate_state_pct))
		fprintf(f,
			"    state: today's code ran %+.1f%% against the measurement's time a "
			"call%s\n",
			fr->validate_state_pct,
			fabs(fr->validate_state_pct) > EST_VALIDATE_STATE_PCT
				? ": the machine was in another state, also when replayed again, "
				  "so this replay checks the state, not the estimate"
				: "");
}

/* Which row the per-site table shows, and why that one. */
static const char *sites_at_why(const struct est_report *r, const struct est_family_result *fr)
{
	if (r->o->at_set && fr->rows[fr->at].pol.kind == POLICY_THRESHOLD &&
	    fr->rows[fr->at].pol.threshold == r->o->at)
		return "--threshold";
	if (fr->at == fr->best && fr->meas)
		return "the measured cheapest";
	if (fr->at == fr->best)
		return "the modelled cheapest";
	return fr->meas ? "the measured cheapest other policy"
			: "the modelled cheapest other policy";
}

/* A site's own measured figure, or "not measured"; its modelled figure only labelled so. */
static void print_site_row(FILE *f, const struct est_family_result *fr,
			   const struct est_site_row *s, int w, const char *n, double unit,
			   double total)
{
	struct est_site_measured sm = est_site_measured(fr, s);
	double d = s->today_ns > 0 ? 100 * (s->at_ns - s->today_ns) / s->today_ns : 0;
	char meas[64];

	if (sm.verdict == EST_SITE_NOT_MEASURED)
		snprintf(meas, sizeof(meas), "not measured");
	else
		snprintf(meas, sizeof(meas), "%+.2f%% (%+.2f .. %+.2f) %s", sm.fig.delta_pct,
			 sm.fig.ci_low, sm.fig.ci_high, est_site_verdict_name(sm.verdict));
	fprintf(f, "    %-*.*s %13s %11.4f %6.1f%%  %-38s %+8.2f%%\n", w, w, s->site->label, n,
		s->today_ns / unit, total > 0 ? 100 * s->today_ns / total : 0.0, meas, d);
}

static void print_sites(FILE *f, const struct est_report *r, const struct est_family_result *fr)
{
	/* A probability table's totals are over a weight of 1: ns per call, not ms. */
	bool counted = est_input_counted(r->in, fr->family);
	double unit = counted ? 1e6 : 1, total = 0;
	const struct est_row *at = &fr->rows[fr->at];
	size_t i;
	int w = 20;

	/* The site column fits the longest label (stage labels and callers make them long). */
	for (i = 0; i < fr->nr_sites; i++) {
		if ((int)strlen(fr->sites[i].site->label) > w)
			w = (int)strlen(fr->sites[i].site->label);
		total += fr->sites[i].today_ns;
	}
	w = w > 90 ? 90 : w;
	if (fr->samples > 0)
		fprintf(f,
			"\n  calls (\u2248) are inferred from the samples with the model's %s "
			"costs per length: an assumption, never counted",
			r->o->cache.label);
	/* The heading names the row every figure below belongs to, measured and modelled. */
	fprintf(f,
		"\n  per site at %s (%s) vs today: each site's own mix, measured (calibrate --mix, "
		"the hottest sites), else not measured; modelled beside it, no verdict:\n"
		"    %-*s %13s %11s %7s  %-38s %9s\n",
		at->pol.name, sites_at_why(r, fr), w, "site",
		fr->samples > 0 ? "calls (\u2248)"
		: counted	? "calls"
				: "weight",
		counted ? "today ms" : "today ns", "share", "measured at T (95% CI)", "modelled");
	if (fr->nr_cells > 1 && fr->meas) {
		char c[96];

		fprintf(f,
			"    (each site's own mix measured in one condition, %s, of the %zu the "
			"whole was measured in: a site's verdict holds there only)\n",
			mixmeas_condition(fr->meas, c, sizeof(c)), fr->nr_cells);
	}
	for (i = 0; i < fr->nr_sites; i++) {
		const struct est_site_row *s = &fr->sites[i];
		char n[32];

		if (fr->samples > 0)
			est_count_str(s->calls, n, sizeof(n));
		else
			snprintf(n, sizeof(n), "%.0f", s->calls);
		print_site_row(f, fr, s, w, n, unit, total);
	}
}

void est_print_text(FILE *f, const struct est_report *r, bool verbose)
{
	const struct costmodel *m = r->m;
	char line[EST_VERDICT_TEXT_LEN];
	size_t i;

	fprintf(f, "copyprof estimate: %s\n  CPU %s, kernel %s\n", r->in->name,
		r->in->meta.cpu_model ? r->in->meta.cpu_model : "unknown",
		r->in->meta.kernel ? r->in->meta.kernel : "unknown");
	fprintf(f, "  cost model %s: %s%s, cache %s\n", r->model_name,
		m->meta.cpu_model ? m->meta.cpu_model : "unknown CPU",
		m->measured ? "" : " (published figures, not measured here)", r->o->cache.label);
	if (r->in->meta.cpu_model && m->meta.cpu_model && !host_same_cpu(&r->in->meta, &m->meta))
		fprintf(f, "  note: the costs were measured on another CPU than the profile's\n");
	for (i = 0; i < r->nr_fam; i++) {
		const struct est_family_result *fr = &r->fam[i];

		print_head(f, r, fr);
		print_table(f, r, fr);
		if (fr->best < 0 || !fr->nr_rows)
			continue;
		print_best(f, fr);
		if (est_glibc_advice(fr, line, sizeof(line)) > EST_GLIBC_UNMEASURED &&
		    est_verdict(fr) != EST_VERDICT_DEPENDS)
			fprintf(f, "  to ship: %s\n", line);
		print_program(f, r, fr);
		print_notes(f, r, fr);
		if (fr->validate_pct && fr->validation)
			print_validation(f, fr);
		print_sites(f, r, fr);
		fprintf(f, "\n  summary (for a commit message):\n\n");
		est_print_summary(f, r, fr);
	}
	(void)verbose;
}
