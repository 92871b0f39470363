// SPDX-License-Identifier: GPL-2.0
/* estimate_summary.c: the one-paragraph summary a patch author can paste into a commit message */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_family.h"
#include "estimate_input.h"
#include "estimate_options.h"
#include "estimate_summary.h"
#include "estimate_verdict.h"
#include "lib/num_format.h"

#define WRAP 72

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

/*
 * What a policy would do to the family's time, never more than its interval supports: "cut it
 * by 3.2% (95% CI -4.0% to -2.4%)", "leave it unchanged", or "not change it beyond the
 * measurement noise (-1.0%, 95% CI -3.0% to +1.0%)".
 */
static void claim(char *buf, size_t len, const struct est_row *w, const char *it)
{
	bool zero_width = fabs(w->ci_high - w->ci_low) < 1e-9;

	if (fabs(w->delta_pct) < 0.05 && zero_width)
		snprintf(buf, len, "leave %s unchanged", it);
	else if (w->ci_low <= 0 && w->ci_high >= 0)
		snprintf(buf, len,
			 "not change %s beyond the measurement noise (%+.1f%%, 95%% CI %+.1f%% "
			 "to %+.1f%%)",
			 it, w->delta_pct, w->ci_low, w->ci_high);
	else if (zero_width)
		snprintf(buf, len, "%s %s by %.1f%%", w->delta_pct < 0 ? "cut" : "raise", it,
			 fabs(w->delta_pct));
	else
		snprintf(buf, len, "%s %s by %.1f%% (95%% CI %+.1f%% to %+.1f%%)",
			 w->delta_pct < 0 ? "cut" : "raise", it, fabs(w->delta_pct), w->ci_low,
			 w->ci_high);
}

/* "REP MOVSB from 2048 bytes", "REP MOVSB at every length", "never using REP MOVSB" */
static void policy_words(char *buf, size_t len, const struct est_row *w, const char *op)
{
	if (w->pol.kind == EST_THRESHOLD && w->pol.threshold == EST_NEVER)
		snprintf(buf, len, "keeping the loop at every length (never %s)", op);
	else if (w->pol.kind == EST_THRESHOLD && w->pol.threshold == 0)
		snprintf(buf, len, "%s at every length behind the threshold dispatch (T=0)", op);
	else if (w->pol.kind == EST_THRESHOLD)
		snprintf(buf, len, "%s from %llu bytes (T=%llu)", op,
			 (unsigned long long)w->pol.threshold,
			 (unsigned long long)w->pol.threshold);
	else if (w->pol.kind == EST_ALWAYS)
		snprintf(buf, len, "%s at every length, without a dispatch", op);
	else
		snprintf(buf, len, "%s", w->pol.name);
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

static void print_verdict(FILE *s, const struct est_family_result *fr, const char *op)
{
	const struct est_family_impls *fi = est_family(fr->family);
	const struct est_row *at = &fr->rows[fr->at], *best = &fr->rows[fr->best];
	char pol[112], what[160], lo[24], hi[24], it[40];

	snprintf(it, sizeof(it), "%s time", fi->name);
	switch (est_verdict(fr)) {
	case EST_VERDICT_SAVES:
		policy_words(pol, sizeof(pol), best, op);
		claim(what, sizeof(what), best, it);
		fprintf(s, " %s is estimated to %s against today's %s.", pol, what, fr->today_impl);
		est_threshold_str(fr->flat_lo, lo, sizeof(lo));
		est_threshold_str(fr->flat_hi, hi, sizeof(hi));
		if (fr->flat_lo != fr->flat_hi && fr->flat_lo != EST_NEVER)
			fprintf(s, " Thresholds from %s to %s bytes come within 1%% of it.", lo,
				hi);
		break;
	case EST_VERDICT_NO_DIFFERENCE:
		fprintf(s,
			" No threshold differs from today's %s beyond the measurement noise: the "
			"cheapest, %s, is at %+.1f%% (95%% CI %+.1f%% to %+.1f%%), an interval "
			"that includes no change.",
			fr->today_impl, fr->rows[fr->at].pol.name, fr->rows[fr->at].delta_pct,
			fr->rows[fr->at].ci_low, fr->rows[fr->at].ci_high);
		break;
	case EST_VERDICT_KEEP_TODAY:
		fprintf(s,
			" Every threshold costs more than today's %s: keep today's code (the "
			"cheapest other policy, %s, is at %+.1f%%).",
			fr->today_impl, fr->rows[fr->at].pol.name, fr->rows[fr->at].delta_pct);
		break;
	case EST_VERDICT_TOO_FEW_SAMPLES:
		fprintf(s, " There are too few samples (%.0f) for a verdict: record longer.",
			fr->samples);
		return;
	}
	if (at != best && fr->best > 0) {
		policy_words(pol, sizeof(pol), at, op);
		claim(what, sizeof(what), at, "it");
		fprintf(s, " %s would %s.", pol, what);
	}
}

char *est_summary_text(const struct est_report *r, const struct est_family_result *fr)
{
	const struct est_family_impls *fi = est_family(fr->family);
	const struct est_input *in = r->in;
	const struct est_row *always = &fr->rows[1];
	const char *cpu = in->meta.cpu_model ?: r->m->meta.cpu_model ?: "this CPU";
	char what[160], *text = NULL;
	size_t len = 0;
	FILE *s = open_memstream(&text, &len);
	int t0 = t0_row(fr);

	if (!s)
		return NULL;
	fprintf(s, "On %s", cpu);
	if (in->meta.kernel)
		fprintf(s, " (kernel %s)", in->meta.kernel);
	if (fr->samples > 0)
		fprintf(s, ", for this profile (%s samples in %s",
			num_format((uint64_t)llround(fr->samples), what), fi->name);
	else if (est_input_counted(in, fr->family))
		fprintf(s, ", for this profile (%s %s calls",
			num_format((uint64_t)llround(fr->calls), what), fi->name);
	else
		fprintf(s, ", for this %s size distribution", fi->name);
	if ((fr->samples > 0 || est_input_counted(in, fr->family)) && in->duration_s > 0)
		fprintf(s, " in %.1f s", in->duration_s);
	if (fr->samples > 0 || est_input_counted(in, fr->family))
		fprintf(s, ")");
	if (fr->meas)
		fprintf(s,
			", measured by copyprof as a paired replay of this mix on %s (%s caches, "
			"%llu rounds on a quiet core, each policy against today's code in the same "
			"round):",
			r->m->meta.cpu_model ?: "an unnamed CPU", fr->meas->cache,
			(unsigned long long)fr->meas->quiet_rounds);
	else
		fprintf(s, ", modelled from per-length costs %s on %s with %s caches%s:",
			r->m->measured ? "measured by copyprof calibrate"
				       : "taken from published figures",
			r->m->meta.cpu_model ?: "an unnamed CPU", r->o->cache.label,
			r->m->measured
				? ""
				: " (no spread known: the intervals cover counting error only)");
	print_verdict(s, fr, fi->string_op);
	claim(what, sizeof(what), always, "it");
	fprintf(s, " %s at every length would %s.", fi->string_op, what);
	if (t0 >= 0 && est_family(fr->family)->dispatch &&
	    fabs(fr->rows[t0].delta_pct - always->delta_pct) >= 0.05) {
		if (fr->rows[t0].ci_high > fr->rows[t0].ci_low &&
		    est_row_within(&fr->rows[t0], always->delta_pct))
			fprintf(s,
				" T=0 runs it at every length too, behind the threshold dispatch: "
				"the two differ by %+.1f points, within the measurement noise.",
				fr->rows[t0].delta_pct - always->delta_pct);
		else
			fprintf(s,
				" T=0 runs it at every length too, behind the threshold dispatch: "
				"the %+.1f points between the two are the dispatch's cost.",
				fr->rows[t0].delta_pct - always->delta_pct);
	}
	if (fr->oracle >= 0) {
		claim(what, sizeof(what), &fr->rows[fr->oracle], "it");
		fprintf(s,
			" The cheaper of the two implementations at every length (an oracle, which "
			"no threshold can beat; modelled) would %s.",
			what);
	}
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
