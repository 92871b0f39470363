// SPDX-License-Identifier: GPL-2.0
/* estimate_summary.c: the one paragraph a patch author pastes into a commit message */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_dist.h"
#include "estimate_lengths.h"
#include "estimate_order.h"
#include "estimate_family.h"
#include "estimate_input.h"
#include "estimate_options.h"
#include "estimate_matrix.h"
#include "estimate_program.h"
#include "estimate_summary.h"
#include "estimate_verdict.h"
#include "lib/count_sum.h"
#include "lib/num_format.h"

#define WRAP 72
#define MAX_SENTENCES 16

/* Prints @text word-wrapped at WRAP columns with @indent spaces before each line. */
static void wrap(FILE *f, const char *text, int indent)
{
	const char *p = text;
	int col = 0;

	while (*p) {
		size_t w = strcspn(p, " ");

		if (col && col + 1 + (int)w > WRAP) {
			fputc('\n', f);
			col = 0;
		}
		if (!col)
			col = fprintf(f, "%*s", indent, "");
		else
			col += fprintf(f, " ");
		col += fprintf(f, "%.*s", (int)w, p);
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

const char *est_count_str(double n, char *buf, size_t len)
{
	char digits[32];
	double r = n;
	size_t i, nd, o = 0;
	int mag;

	if (!(n > 0) || !isfinite(n)) {
		snprintf(buf, len, "0");
		return buf;
	}
	mag = (int)floor(log10(n));
	if (mag >= 3)
		r = round(n / pow(10, mag - 2)) * pow(10, mag - 2);
	snprintf(digits, sizeof(digits), "%.0f", r);
	nd = strlen(digits);
	for (i = 0; i < nd && o + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

const char *est_interval_str(double lo, double hi, int prec, const char *sep, const char *unit,
			     char *buf, size_t len)
{
	char a[32], b[32];

	for (;; prec++) {
		snprintf(a, sizeof(a), "%+.*f", prec, lo);
		snprintf(b, sizeof(b), "%+.*f", prec, hi);
		/* Exactly 0 .. 0 (today's very code) is a true zero width: said as it is. */
		if (strcmp(a, b) || prec >= 4 || !(hi > lo))
			break;
	}
	snprintf(buf, len, "%s%s%s%s%s", a, unit, sep, b, unit);
	return buf;
}

/* The paragraph being written: each sentence once, whatever path writes it twice. */
struct para {
	char *s[MAX_SENTENCES];
	size_t n;
};

static void say(struct para *p, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	size_t i;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	for (i = 0; s && i < p->n; i++)
		if (!strcmp(p->s[i], s)) {
			free(s);
			return;
		}
	if (s && p->n < MAX_SENTENCES)
		p->s[p->n++] = s;
	else
		free(s);
}

/* "5.2%" of a saving in the verdict's convention: a saving positive, a cost negative. */
static void saving_range(char *buf, size_t len, const struct est_row *w)
{
	snprintf(buf, len, "95%% CI %.1f%% to %.1f%%", -w->ci_high, -w->ci_low);
}

/*
 * What a policy would do to the family's time, never more than its interval supports, each
 * bound a magnitude in the direction named (a saving is positive, as in the verdict line):
 * "cut it by 3.2% (95% CI 2.4% to 4.0%)", "raise it by 12.0% (95% CI 10.1% to 14.2%)",
 * "leave it unchanged", or "not change it beyond the measurement noise (saving 1.0%, 95% CI
 * -1.0% to 3.0%)".
 */
static void claim(char *buf, size_t len, const struct est_row *w, const char *it)
{
	bool zero_width = fabs(w->ci_high - w->ci_low) < 1e-9;
	char ci[64];

	saving_range(ci, sizeof(ci), w);
	if (fabs(w->delta_pct) < 0.05 && zero_width)
		snprintf(buf, len, "leave %s unchanged", it);
	else if (w->ci_low <= 0 && w->ci_high >= 0)
		snprintf(buf, len, "not change %s beyond the measurement noise (saving %.1f%%, %s)",
			 it, -w->delta_pct, ci);
	else if (w->delta_pct < 0)
		snprintf(buf, len, "cut %s by %.1f%%%s%s%s", it, -w->delta_pct,
			 zero_width ? "" : " (", zero_width ? "" : ci, zero_width ? "" : ")");
	else if (zero_width)
		snprintf(buf, len, "raise %s by %.1f%%", it, w->delta_pct);
	else
		snprintf(buf, len, "raise %s by %.1f%% (95%% CI %.1f%% to %.1f%%)", it,
			 w->delta_pct, w->ci_low, w->ci_high);
}

/*
 * "REP MOVSB from 2048 bytes (T=2048)" (glibc's, for n > T: "above 4096 bytes"), "REP MOVSB at
 * every length", "never using REP MOVSB"
 */
static void policy_words(char *buf, size_t len, const struct est_row *w, const char *op, bool above)
{
	if (w->pol.kind == POLICY_THRESHOLD && w->pol.threshold == POLICY_NEVER)
		snprintf(buf, len, "Keeping the loop at every length (never %s)", op);
	else if (w->pol.kind == POLICY_THRESHOLD && w->pol.threshold == 0)
		snprintf(buf, len, "%s at every length behind the threshold dispatch (T=0)", op);
	else if (w->pol.kind == POLICY_THRESHOLD)
		snprintf(buf, len, "%s %s %llu bytes (T=%llu)", op, above ? "above" : "from",
			 (unsigned long long)w->pol.threshold,
			 (unsigned long long)w->pol.threshold);
	else if (w->pol.kind == POLICY_ALWAYS)
		snprintf(buf, len, "%s at every length, without a dispatch", op);
	else
		snprintf(buf, len, "%s", w->pol.name);
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

/* The input, named: what it is, what it counted, where and for how long. */
static void say_input(struct para *p, const struct est_report *r,
		      const struct est_family_result *fr)
{
	const struct est_input *in = r->in;
	const char *fam = est_family(fr->family)->name;
	char n[COUNT_SUM_LEN], h[NUM_FORMAT_LEN], what[160] = "", where[200] = "";
	char when[200] = "";

	if (fr->samples > 0)
		snprintf(what, sizeof(what), "%s sample%s in %s",
			 count_sum_format(count_sum_from_double(fr->samples), n),
			 fr->samples == 1 ? "" : "s", fam);
	else if (est_input_counted(in, fr->family))
		snprintf(what, sizeof(what), "%s %s calls",
			 count_sum_format(count_sum_from_double(fr->calls), n), fam);
	if (in->nr_hosts > 1)
		snprintf(where, sizeof(where), " on %s hosts", num_format(in->nr_hosts, h));
	if (in->meta.command && *in->meta.command)
		snprintf(when, sizeof(when), " while `%.120s` ran", in->meta.command);
	else if (in->duration_s > 0)
		snprintf(when, sizeof(when), " in %.1f s", in->duration_s);
	if (*what)
		say(p, "For %s (%s%s%s), recorded on %s (kernel %s),", in->label ?: in->name, what,
		    where, when, in->meta.cpu_model ?: "an unnamed CPU",
		    in->meta.kernel ?: "unknown");
	else
		say(p, "For the %s size distribution %s, on the cost model's CPU and kernel,", fam,
		    in->label ?: in->name);
}

/* How the replay drew each call's length (measure/replay_mix.c), and its alignments. */
static const char *drawn_words(const struct mixmeas *mm, char *buf, size_t len)
{
	char lengths[200], order[160] = "";

	/* Said where the order was recorded; a mix without it reads as it always did. */
	if (mm->order_runs)
		snprintf(order, sizeof(order), ", %s",
			 est_order_words(mm, lengths, sizeof(lengths)));
	snprintf(buf, len,
		 "lengths drawn from the mix's buckets in proportion to their calls, %s%s, "
		 "alignments %s",
		 est_lengths_words(mm, lengths, sizeof(lengths)) + strlen("lengths "), order,
		 !strcmp(mm->alignment, "recorded") ? "as recorded" : "uniform");
	return buf;
}

/* The paired measurement's conditions, as measured: cache, working set, lengths, quiet share. */
static void say_source(struct para *p, const struct est_report *r,
		       const struct est_family_result *fr)
{
	const struct mixmeas *mm = fr->meas;
	const char *cpu = r->m->meta.cpu_model ?: "an unnamed CPU";
	char q[NUM_FORMAT_LEN], n[NUM_FORMAT_LEN], apart[64], ws[24], cold[24], cw[48] = "";
	char sit[160] = "", dw[160], drawn[480];
	double share;

	if (!mm) {
		say(p, "modelled from per-length costs %s on %s with %s caches, %s:",
		    r->m->measured ? "measured by copyprof calibrate"
				   : "taken from published figures",
		    cpu, r->o->cache.label, est_dist_words(fr, dw, sizeof(dw)));
		return;
	}
	share = mm->rounds ? 100.0 * (double)mm->quiet_rounds / (double)mm->rounds : 0;
	if (mm->cold_bytes)
		snprintf(cw, sizeof(cw), ", cold lines from %s",
			 num_format_bytes(mm->cold_bytes, cold, sizeof(cold)));
	if (mm->sittings > 1)
		snprintf(sit, sizeof(sit), " in %llu sittings, %s, each interval spanning theirs;",
			 (unsigned long long)mm->sittings,
			 mixmeas_sittings_apart(mm, apart, sizeof(apart)));
	say(p,
	    "measured by copyprof as a paired replay of this mix on %s (%s caches, random "
	    "offsets in %s per side%s; %s, %s;%s each policy against today's code in the same "
	    "round; the answer from the %s of %s rounds (%.1f%%) %s%s):",
	    cpu, mm->cache, num_format_bytes(mm->ws_bytes, ws, sizeof(ws)), cw,
	    drawn_words(mm, drawn, sizeof(drawn)), est_dist_words(fr, dw, sizeof(dw)), sit,
	    num_format(mm->quiet_rounds, q), num_format(mm->rounds, n), share,
	    mm->quiet_tolerance > MIXMEAS_QUIET_TOLERANCE + 1e-9
		    ? "with the fastest reference, no quiet window holding enough"
		    : "that found the core quiet",
	    mixmeas_seldom_quiet(mm) ? ", seldom: the figures may lean towards a contended core's"
				     : "");
}

/*
 * Without a measurement of the mix: the model's cheapest, said to be modelled, no verdict and
 * nothing to ship, and what would measure it.
 */
static void say_modelled(struct para *p, const struct est_report *r,
			 const struct est_family_result *fr)
{
	const char *cpu = fr->model_cpu ?: "an unnamed CPU";
	const struct est_row *c = &fr->rows[fr->best > 0 ? fr->best : fr->at];
	char ci[192] = "no interval: the curves carry no noise", next[448], b[96], dw[160];

	if (c->ci_known)
		snprintf(ci, sizeof(ci), "95%% CI %s%s",
			 est_interval_str(c->ci_low, c->ci_high, 1, " to ", "%", b, sizeof(b)),
			 fr->curves_noisy ? ""
					  : ", counting error only: the curves carry no noise");
	if (fr->model_published)
		snprintf(next, sizeof(next),
			 "a verdict needs a paired measurement of this mix on that CPU");
	else if (fr->meas)
		snprintf(next, sizeof(next),
			 "the paired measurement of this mix measured no policy (too few rounds "
			 "found the core quiet): measure it again on a quieter CPU");
	else if (fr->meas_stored)
		snprintf(next, sizeof(next),
			 "estimate without --model-only answers from the paired measurement the "
			 "cost model stores for this mix");
	else
		snprintf(next, sizeof(next), "measure this mix with: %s", fr->measure_cmd);
	say(p,
	    "the per-length model of the costs on %s (%s, %s caches, %s) puts %s, %s, at %+.1f%% "
	    "(%s) against today's %s.",
	    cpu, r->m->measured ? "measured by copyprof calibrate" : "published figures",
	    r->o->cache.label, est_dist_words(fr, dw, sizeof(dw)),
	    fr->best > 0 ? "the cheapest policy" : "the cheapest other than today's code",
	    c->pol.name, c->delta_pct, ci, fr->today_impl);
	say(p, "That figure is modelled, not measured: no verdict and nothing to ship; %s.", next);
}

static void say_verdict(struct para *p, const struct est_family_result *fr, const char *op)
{
	const struct est_row *at = &fr->rows[fr->at], *best = &fr->rows[fr->best];
	const char *how = fr->meas ? "measured" : "estimated";
	char pol[112], what[200], lo[24], hi[24], it[40];

	snprintf(it, sizeof(it), "%s time", est_family(fr->family)->name);
	switch (est_verdict(fr)) {
	case EST_VERDICT_SAVES:
		policy_words(pol, sizeof(pol), best, op, fr->impls && fr->impls->glibc);
		claim(what, sizeof(what), best, it);
		say(p, "%s is %s to %s against today's %s.", pol, how, what, fr->today_impl);
		est_threshold_str(fr->flat_lo, lo, sizeof(lo));
		est_threshold_str(fr->flat_hi, hi, sizeof(hi));
		if (fr->flat_lo != fr->flat_hi && fr->flat_lo != POLICY_NEVER &&
		    fr->flat_hi == POLICY_NEVER)
			say(p,
			    "Every threshold from %s bytes up, and never, comes within 1%% of it.",
			    lo);
		else if (fr->flat_lo != fr->flat_hi && fr->flat_lo != POLICY_NEVER)
			say(p, "Thresholds from %s to %s bytes come within 1%% of it.", lo, hi);
		break;
	case EST_VERDICT_NO_DIFFERENCE: {
		char today[80], words[EST_VERDICT_TEXT_LEN];

		saving_range(what, sizeof(what), at);
		snprintf(today, sizeof(today), "today's %s", fr->today_impl);
		est_no_difference_words(fr, today, words, sizeof(words));
		words[0] = 'N';
		if ((at->ci_low <= 0 && at->ci_high >= 0) || !fr->meas)
			say(p,
			    "%s: the cheapest, %s, would save %.1f%% (%s), an interval that "
			    "includes no change.",
			    words, at->pol.name, -at->delta_pct, what);
		else
			say(p,
			    "%s: the cheapest, %s, would save %.1f%% (%s), within what today's "
			    "code measured against itself (%+.1f%% .. %+.1f%%).",
			    words, at->pol.name, -at->delta_pct, what, fr->meas->control.ci_low,
			    fr->meas->control.ci_high);
		break;
	}
	case EST_VERDICT_KEEP_TODAY:
		claim(what, sizeof(what), at, it);
		say(p,
		    "Every threshold costs more than today's %s: keep today's code (the cheapest "
		    "other policy, %s, would %s).",
		    fr->today_impl, at->pol.name, what);
		break;
	case EST_VERDICT_TOO_FEW_SAMPLES: {
		char n[COUNT_SUM_LEN];

		say(p, "There are too few samples (%s) for a verdict: record longer.",
		    count_sum_format(count_sum_from_double(fr->samples), n));
		return;
	}
	case EST_VERDICT_NOT_MEASURED:
		return; /* say_modelled() */
	case EST_VERDICT_DEPENDS: {
		char words[EST_VERDICT_TEXT_LEN];

		est_verdict_text(fr, words, sizeof(words));
		words[0] = 'I';
		say(p,
		    "%s. %s, so which of these the copies find is not known: no verdict and "
		    "nothing to ship.",
		    words,
		    fr->footprint_bytes ? "The condition of the recorded footprint was not measured"
					: "The profile records no footprint");
		return;
	}
	}
	if (at != best && fr->best > 0 && at->measured) {
		policy_words(pol, sizeof(pol), at, op, fr->impls && fr->impls->glibc);
		claim(what, sizeof(what), at, "it");
		say(p, "%s would %s.", pol, what);
	}
}

/* A verdict that holds in several measured conditions: which, and whose figures are shown. */
static void say_conditions(struct para *p, const struct est_family_result *fr)
{
	char all[EST_VERDICT_TEXT_LEN], shown[96];

	if (fr->nr_cells < 2 || est_verdict(fr) == EST_VERDICT_DEPENDS ||
	    est_verdict(fr) == EST_VERDICT_TOO_FEW_SAMPLES)
		return;
	est_matrix_conditions_text(fr, all, sizeof(all));
	say(p,
	    "The verdict holds in each of the %zu conditions of cache state and working set the "
	    "mix was measured in%s (%s), the profile recording none of its own; the figures are "
	    "those of %s.",
	    est_matrix_measured_cells(fr),
	    est_matrix_measured_cells(fr) < fr->nr_cells ? " that measured something" : "", all,
	    mixmeas_condition(fr->meas, shown, sizeof(shown)));
}

/*
 * The string op at every length and the dispatch's own cost, measured. The oracle is modelled
 * (no code runs it): beside a measurement it stays out of the paragraph.
 */
static void say_bounds(struct para *p, const struct est_family_result *fr)
{
	const struct est_family_impls *fi = fr->impls;
	const struct est_row *always = &fr->rows[1];
	char what[200];
	int t0 = t0_row(fr);

	if (always->pol.kind != POLICY_ALWAYS || !always->measured)
		return;
	claim(what, sizeof(what), always, "it");
	say(p, "%s at every length would %s.", fi->string_op, what);
	if (t0 < 0 || !fi->dispatch || !fr->rows[t0].measured ||
	    fabs(fr->rows[t0].delta_pct - always->delta_pct) < 0.05)
		return;
	if (fr->rows[t0].ci_high > fr->rows[t0].ci_low &&
	    est_row_within(&fr->rows[t0], always->delta_pct))
		say(p,
		    "T=0 runs it at every length too, behind the threshold dispatch: the two "
		    "differ by %.1f points, within the measurement noise.",
		    fr->rows[t0].delta_pct - always->delta_pct);
	else
		say(p,
		    "T=0 runs it at every length too, behind the threshold dispatch: the %.1f "
		    "points between the two are the dispatch's cost.",
		    fr->rows[t0].delta_pct - always->delta_pct);
}

/*
 * The program-level figure (estimate_program.h), where the change of copy time is measured: a
 * modelled figure has no place where the paragraph states measurements.
 */
static void say_program(struct para *p, const struct est_report *r,
			const struct est_family_result *fr)
{
	struct est_program pg;

	est_program_figure(r->in, fr, est_program_row(fr), &pg);
	if (!pg.known || !pg.measured || !pg.ci_known)
		return;
	if (pg.from == EST_SHARE_TRACED) {
		say(p,
		    "For the program: its copy time, sampled while recorded (%llu samples, the "
		    "uprobes' traps left out; they slow the copies, so the share reads high), is "
		    "%.2f%% of its own CPU time, so %s would change its CPU time by %+.2f%% (95%% "
		    "CI %+.2f to %+.2f%%)%s",
		    (unsigned long long)pg.samples, pg.share_pct, fr->rows[pg.row].pol.name, pg.pct,
		    pg.lo, pg.hi,
		    fr->impls && fr->impls->glibc ? "; copyprof verify measures that by running it."
						  : "; only a kernel built with it can show that.");
		return;
	}
	say(p,
	    "For the program: its copy time, modelled, is %.2f%% of its own CPU time (%.3f s "
	    "recorded less "
	    "%.3f s of uprobe traps%s), so %s would change its CPU time by %+.2f%% (95%% CI %+.2f "
	    "to %+.2f%%)%s",
	    pg.share_pct, pg.cpu_s, pg.probe_cpu_s,
	    pg.probe_cpu_s > EST_PROGRAM_TRAP_SHARE * pg.cpu_s ? ", most of it: uncertain" : "",
	    fr->rows[pg.row].pol.name, pg.pct, pg.lo, pg.hi,
	    /* verify moves glibc's tunable; a kernel's threshold needs the kernel rebuilt */
	    fr->impls && fr->impls->glibc ? "; copyprof verify measures that by running it."
					  : "; only a kernel built with it can show that.");
}

char *est_summary_text(const struct est_report *r, const struct est_family_result *fr)
{
	struct para p = { .n = 0 };
	char *text = NULL, line[160];
	size_t len = 0, i;
	FILE *s;

	say_input(&p, r, fr);
	if (est_verdict(fr) == EST_VERDICT_NOT_MEASURED) {
		say_modelled(&p, r, fr);
	} else {
		say_source(&p, r, fr);
		say_verdict(&p, fr, fr->impls->string_op);
		say_conditions(&p, fr);
		if (est_verdict(fr) != EST_VERDICT_TOO_FEW_SAMPLES)
			say_bounds(&p, fr);
		say_program(&p, r, fr);
	}
	if (est_glibc_advice(fr, line, sizeof(line)) > EST_GLIBC_UNMEASURED &&
	    est_verdict(fr) != EST_VERDICT_DEPENDS)
		say(&p, "To ship: %s.", line);
	s = open_memstream(&text, &len);
	for (i = 0; i < p.n; i++) {
		if (s)
			fprintf(s, "%s%s", i ? " " : "", p.s[i]);
		free(p.s[i]);
	}
	if (s)
		fclose(s);
	return text;
}

void est_print_summary(FILE *f, const struct est_report *r, const struct est_family_result *fr)
{
	char *text = est_summary_text(r, fr);

	if (text)
		wrap(f, text, 4);
	free(text);
}
