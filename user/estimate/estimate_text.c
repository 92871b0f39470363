// SPDX-License-Identifier: GPL-2.0
/* estimate_text.c: estimate's text output: per family a policy table, the best T, per site */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "estimate_family.h"
#include "estimate_input.h"
#include "estimate_options.h"
#include "estimate_summary.h"
#include "estimate_text.h"
#include "estimate_validation.h"
#include "estimate_verdict.h"

/* The mix correction's penalties, or why there are none (docs/estimate.md#the-mix-correction). */
static void print_mix(FILE *f, const struct est_mix *mix)
{
	const struct est_mix_classes *cl = &mix->classes;
	double short_calls = 0;
	int w = 16; /* the name column: the longest replica name */
	char range[32];
	size_t i, k;

	if (!mix->applied) {
		fprintf(f, "  mix correction: none (%s)\n", mix->why[0] ? mix->why : "not run");
		return;
	}
	fprintf(f,
		"  mix correction below %llu B (%zu calls of the profile's lengths; ns per call "
		"shuffled - sorted, model):\n   ",
		(unsigned long long)mix->cutoff, mix->calls);
	for (i = 0; i < mix->nr_impls; i++)
		fprintf(f, "%s %s %+.2f ns (%.1f - %.1f, %.1f)", i ? "," : "", mix->impls[i].impl,
			mix->impls[i].penalty_ns, mix->impls[i].shuffled_ns,
			mix->impls[i].sorted_ns, mix->impls[i].predicted_ns);
	fprintf(f, "\n");
	if (cl->nr < 2)
		return;
	/* What each side is charged under a threshold: its own lengths' penalty, plus the split. */
	for (i = 0; i < mix->nr_impls; i++)
		if ((int)strlen(mix->impls[i].impl) > w)
			w = (int)strlen(mix->impls[i].impl);
	fprintf(f,
		"  per size class (ns per call; the loop side timed on the lengths below each "
		"class's end,\n  the string op on those from its start; a threshold T at a "
		"class's start (lo) adds\n  its split penalty to every call below %llu B):\n    "
		"%-*s",
		(unsigned long long)mix->cutoff, w, "lengths");
	for (k = 0; k < cl->nr; k++) {
		snprintf(range, sizeof(range), "%llu-%llu", (unsigned long long)cl->edges[k],
			 (unsigned long long)cl->edges[k + 1] - 1);
		fprintf(f, " %8s", range);
		short_calls += cl->calls[k];
	}
	fprintf(f, "\n    %-*s", w, "calls %");
	for (k = 0; k < cl->nr; k++)
		fprintf(f, " %8.1f", short_calls > 0 ? 100 * cl->calls[k] / short_calls : 0);
	for (i = 0; i < mix->nr_impls; i++) {
		fprintf(f, "\n    %-*s", w, mix->impls[i].impl);
		for (k = 0; k < cl->nr; k++)
			fprintf(f, " %+8.2f", mix->impls[i].class_penalty_ns[k]);
	}
	fprintf(f, "\n    %-*s %8s", w, "split (T = lo)", "-");
	for (k = 1; k < cl->nr; k++)
		fprintf(f, " %+8.2f", mix->split.penalty_ns[k]);
	fprintf(f, "\n");
}

/* The neighbour correction per policy (docs/estimate.md#the-neighbour-correction). */
static void print_neighbour(FILE *f, const struct est_family_result *fr)
{
	const struct est_neighbour *nb = &fr->nb;
	size_t i, col = 0;

	if (!nb->applied) {
		fprintf(f, "  neighbour correction: none (%s)\n", nb->why[0] ? nb->why : "not run");
		return;
	}
	fprintf(f,
		"  neighbour correction (each policy on the whole mix, %zu calls, shuffled - "
		"sorted over the replay's speed %.3f; ns per call added beyond the mix correction):"
		"\n   ",
		nb->calls, nb->speed);
	for (i = 0; i < nb->nr_rows; i++) {
		if (!isfinite(nb->residual_ns[i]))
			continue;
		if (col == 6) {
			fprintf(f, "\n   ");
			col = 0;
		}
		fprintf(f, " %s %+.2f%s", fr->rows[i].pol.name, nb->residual_ns[i],
			i + 2 < nb->nr_rows ? "," : "");
		col++;
	}
	fprintf(f, "\n");
}

static void print_head(FILE *f, const struct est_report *r, const struct est_family_result *fr)
{
	const struct est_input *in = r->in;
	size_t i, sites = 0;

	for (i = 0; i < in->nr_sites; i++)
		sites += in->sites[i].family == fr->family;
	char n[32];

	if (fr->samples > 0)
		fprintf(f,
			"\n%s: %.0f time-weighted samples (%zu site%s), \u2248%s calls inferred "
			"from them",
			est_family(fr->family)->name, fr->samples, sites, sites == 1 ? "" : "s",
			est_count_str(fr->calls, n, sizeof(n)));
	else if (est_input_counted(in, fr->family))
		fprintf(f, "\n%s: %.0f calls (%zu site%s)", est_family(fr->family)->name, fr->calls,
			sites, sites == 1 ? "" : "s");
	else
		fprintf(f, "\n%s: a size distribution (relative weights, %zu site%s)",
			est_family(fr->family)->name, sites, sites == 1 ? "" : "s");
	if (fr->share >= 0)
		fprintf(f, ", %.2f%% of the CPU time sampled", 100 * fr->share);
	if (in->duration_s > 0)
		fprintf(f, ", %.2f s recorded", in->duration_s);
	fprintf(f, "\n  today: %s (%s)%s\n", fr->today_impl, fr->today_why,
		fr->today_approx ? " [approximation]" : "");
	if (est_family(fr->family)->dispatch)
		fprintf(f,
			"  dispatch cost of a threshold (%s vs %s, %s): %+.2f ns below T%s, "
			"%+.2f ns from T%s\n",
			est_family(fr->family)->dispatch, est_family(fr->family)->loop,
			est_family(fr->family)->string, fr->dispatch_lo_ns,
			fr->dispatch_lo_measured ? "" : " (not measured)", fr->dispatch_hi_ns,
			fr->dispatch_hi_measured ? "" : " (not measured)");
	else
		fprintf(f, "  dispatch cost of a threshold: not replicated for %s, taken as 0\n",
			est_family(fr->family)->name);
	print_mix(f, &fr->mix);
	print_neighbour(f, fr);
}

static void print_table(FILE *f, const struct est_report *r, const struct est_family_result *fr)
{
	bool per_s = r->in->duration_s > 0, tot = est_input_counted(r->in, fr->family);
	bool share = fr->share >= 0;
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
	fprintf(f, " %8s  %s\n", "delta %", "95% CI of delta %");
	for (i = 0; i < fr->nr_rows; i++) {
		const struct est_row *w = &fr->rows[i];

		if (w->pol.kind == EST_THRESHOLD)
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
		fprintf(f, " %+7.2f%%", w->delta_pct);
		if (i)
			fprintf(f, "  %+.2f .. %+.2f", w->ci_low, w->ci_high);
		fprintf(f, "%s\n", (int)i == fr->best && mark ? "  <- best" : "");
	}
}

/* The row of threshold 0, or -1. */
static int t0_row(const struct est_family_result *fr)
{
	size_t i;

	for (i = 0; i < fr->nr_rows; i++)
		if (fr->rows[i].pol.kind == EST_THRESHOLD && fr->rows[i].pol.threshold == 0)
			return (int)i;
	return -1;
}

static void print_best(FILE *f, const struct est_family_result *fr)
{
	const struct est_row *b = &fr->rows[fr->best];
	char lo[24], hi[24], v[192];
	int t0 = t0_row(fr);

	est_verdict_text(fr, v, sizeof(v));
	fprintf(f, "\n  verdict: %s\n", v);
	est_threshold_str(fr->flat_lo, lo, sizeof(lo));
	est_threshold_str(fr->flat_hi, hi, sizeof(hi));
	if (fr->best > 0)
		fprintf(f, "  best: %s, %+.2f%% (95%% CI %+.2f .. %+.2f) vs today\n", b->pol.name,
			b->delta_pct, b->ci_low, b->ci_high);
	else
		fprintf(f,
			"  best: today's code; the cheapest other policy, %s, %+.2f%% (95%% CI "
			"%+.2f .. %+.2f)\n",
			fr->rows[fr->at].pol.name, fr->rows[fr->at].delta_pct,
			fr->rows[fr->at].ci_low, fr->rows[fr->at].ci_high);
	if (fr->best > 0 && est_verdict(fr) == EST_VERDICT_SAVES && b->pol.kind == EST_THRESHOLD) {
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
	if (t0 >= 0 && est_family(fr->family)->dispatch)
		fprintf(f,
			"  dispatch cost: T=0 runs %s at every length as always does, behind the "
			"dispatch: %+.2f points\n",
			est_family(fr->family)->string,
			fr->rows[t0].delta_pct - fr->rows[1].delta_pct);
	if (fr->oracle >= 0)
		fprintf(f, "  oracle (the cheaper implementation at every length): %+.2f%%\n",
			fr->rows[fr->oracle].delta_pct);
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
	if (fr->today_guessed)
		fprintf(f, "  note: the kernel version is unknown; today's code assumes a current "
			   "kernel\n");
}

/* Relative error counts where the measured effect is large enough to be told from noise. */
#define VALIDATE_MIN_EFFECT 5.0

static void print_validation(FILE *f, const struct est_family_result *fr)
{
	double gap;
	bool same;
	int best_meas = est_validation_best(fr, &gap, &same);
	size_t i;

	fprintf(f,
		"\n  validation (--validate MEASURED this now, on this CPU; the estimate above "
		"is not changed by it):\n  %zu calls replayed (shuffled, fixed seed), %d "
		"interleaved runs, "
		"CPU %d:\n    %-8s %12s %11s %11s %9s\n",
		fr->replay_calls, fr->replay_runs, fr->replay_cpu, "policy", "predicted %",
		"measured %", "error pp", "relative");
	for (i = 0; i < fr->nr_rows; i++) {
		const struct est_row *w = &fr->rows[i];
		double m = fr->measured_pct[i];

		if (isnan(m) || !i)
			continue;
		fprintf(f, "    %-8s %+12.2f %+11.2f %+11.2f", w->pol.name, w->delta_pct, m,
			w->delta_pct - m);
		if (fabs(m) > VALIDATE_MIN_EFFECT)
			fprintf(f, " %8.1f%%\n", 100 * fabs(w->delta_pct - m) / fabs(m));
		else
			fprintf(f, " %9s\n", "-");
	}
	if (isfinite(fr->noise_floor_pct))
		fprintf(f,
			"    noise floor: policies that run the same code measured up to %.2f "
			"points apart\n",
			fr->noise_floor_pct);
	else
		fprintf(f, "    noise floor: unknown (no two policies run the same code here)\n");
	if (best_meas < 0)
		return;
	fprintf(f, "    best threshold: predicted %s, measured %s", fr->rows[fr->best].pol.name,
		fr->rows[best_meas].pol.name);
	if (best_meas != fr->best)
		fprintf(f, "; %s measured %.2f points from it: %s", fr->rows[fr->best].pol.name,
			gap, same ? "the same optimum" : "a different optimum");
	fprintf(f, "\n");
}

static void print_sites(FILE *f, const struct est_report *r, const struct est_family_result *fr)
{
	/* A probability table's totals are over a weight of 1: ns per call, not ms. */
	bool counted = est_input_counted(r->in, fr->family);
	double unit = counted ? 1e6 : 1;
	const struct est_row *at = &fr->rows[fr->at];
	size_t i;
	int w = 20;

	/* The site column fits the longest label (stage labels and callers make them long). */
	for (i = 0; i < fr->nr_sites; i++)
		if ((int)strlen(fr->sites[i].site->label) > w)
			w = (int)strlen(fr->sites[i].site->label);
	w = w > 90 ? 90 : w;
	fprintf(f, "\n  per site at %s vs today:\n    %-*s %13s %11s %11s %8s\n", at->pol.name, w,
		"site",
		fr->samples > 0 ? "calls (\u2248)"
		: counted	? "calls"
				: "weight",
		counted ? "today ms" : "today ns", counted ? "at T ms" : "at T ns", "delta %");
	for (i = 0; i < fr->nr_sites; i++) {
		const struct est_site_row *s = &fr->sites[i];
		double d = s->today_ns > 0 ? 100 * (s->at_ns - s->today_ns) / s->today_ns : 0;

		char n[32];

		if (fr->samples > 0)
			est_count_str(s->calls, n, sizeof(n));
		else
			snprintf(n, sizeof(n), "%.0f", s->calls);
		fprintf(f, "    %-*.*s %13s %11.4f %11.4f %+7.2f%%  %s\n", w, w, s->site->label, n,
			s->today_ns / unit, s->at_ns / unit, d,
			d < -0.005  ? "wins"
			: d > 0.005 ? "loses"
				    : "same");
	}
}

void est_print_text(FILE *f, const struct est_report *r, bool verbose)
{
	const struct costmodel *m = r->m;
	size_t i;

	fprintf(f, "copyprof estimate: %s\n  CPU %s, kernel %s\n", r->in->name,
		r->in->meta.cpu_model ? r->in->meta.cpu_model : "unknown",
		r->in->meta.kernel ? r->in->meta.kernel : "unknown");
	fprintf(f, "  cost model %s: %s%s, cache %s\n", r->model_name,
		m->meta.cpu_model ? m->meta.cpu_model : "unknown CPU",
		m->measured ? "" : " (published figures, not measured here)", r->o->cache.label);
	if (r->in->meta.cpu_model && m->meta.cpu_model &&
	    strcmp(r->in->meta.cpu_model, m->meta.cpu_model))
		fprintf(f, "  note: the costs were measured on another CPU than the profile's\n");
	for (i = 0; i < r->nr_fam; i++) {
		const struct est_family_result *fr = &r->fam[i];

		print_head(f, r, fr);
		print_table(f, r, fr);
		if (fr->best < 0 || !fr->nr_rows)
			continue;
		print_best(f, fr);
		print_notes(f, r, fr);
		if (fr->measured_pct)
			print_validation(f, fr);
		print_sites(f, r, fr);
		fprintf(f, "\n  summary (for a commit message):\n\n");
		est_print_summary(f, r, fr);
	}
	(void)verbose;
}
