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

static const char *verb(double pct)
{
	return pct < 0 ? "cut" : "raise";
}

/* "cut it by 3.2%", "raise it by 1.0%", "leave it unchanged" */
static void change(char *buf, size_t len, double pct)
{
	if (fabs(pct) < 0.05)
		snprintf(buf, len, "leave it unchanged");
	else
		snprintf(buf, len, "%s it by %.1f%%", verb(pct), fabs(pct));
}

/* "REP MOVSB from 2048 bytes", "REP MOVSB at every length", "never using REP MOVSB" */
static void policy_words(char *buf, size_t len, const struct est_row *w, const char *op)
{
	if (w->pol.kind == EST_THRESHOLD && w->pol.threshold == EST_NEVER)
		snprintf(buf, len, "keeping the loop at every length (never %s)", op);
	else if (w->pol.kind == EST_THRESHOLD && w->pol.threshold == 0)
		snprintf(buf, len, "%s at every length behind the threshold dispatch", op);
	else if (w->pol.kind == EST_THRESHOLD)
		snprintf(buf, len, "%s from %llu bytes", op, (unsigned long long)w->pol.threshold);
	else
		snprintf(buf, len, "%s", w->pol.name);
}

char *est_summary_text(const struct est_report *r, const struct est_family_result *fr)
{
	const struct est_family_impls *fi = est_family(fr->family);
	const struct est_input *in = r->in;
	const struct est_row *at = &fr->rows[fr->at], *best = &fr->rows[fr->best];
	const struct est_row *always = &fr->rows[1], *oracle = &fr->rows[fr->oracle];
	const char *cpu = in->meta.cpu_model ?: r->m->meta.cpu_model ?: "this CPU";
	char pol[112], lo[24], hi[24], *text = NULL;
	size_t len = 0;
	FILE *s = open_memstream(&text, &len);

	if (!s)
		return NULL;
	policy_words(pol, sizeof(pol), at, fi->string_op);
	fprintf(s, "On %s", cpu);
	if (in->meta.kernel)
		fprintf(s, " (kernel %s)", in->meta.kernel);
	if (est_input_counted(in, fr->family)) {
		fprintf(s, ", for this profile (%.0f %s calls", fr->calls, fi->name);
		if (in->duration_s > 0)
			fprintf(s, " in %.1f s", in->duration_s);
		fprintf(s, ")");
	} else {
		fprintf(s, ", for this %s size distribution", fi->name);
	}
	fprintf(s,
		", %s is estimated to %s %s time by %.1f%% (95%% CI %+.1f%% to %+.1f%%) "
		"against today's %s",
		pol, verb(at->delta_pct), fi->name, fabs(at->delta_pct), at->ci_low, at->ci_high,
		fr->today_impl);
	fprintf(s, ", with %s caches and costs %s on %s%s.", r->o->cache.label,
		r->m->measured ? "measured by copyprof calibrate" : "taken from published figures",
		r->m->meta.cpu_model ?: "an unnamed CPU",
		r->m->measured ? ""
			       : " (no spread known: the interval covers counting error only)");
	if (best != at)
		fprintf(s, " The best threshold for this profile is %s (%+.1f%%).", best->pol.name,
			best->delta_pct);
	est_threshold_str(fr->flat_lo, lo, sizeof(lo));
	est_threshold_str(fr->flat_hi, hi, sizeof(hi));
	if (fr->flat_lo != fr->flat_hi)
		fprintf(s, " Thresholds from %s to %s bytes come within 1%% of the best.", lo, hi);
	change(pol, sizeof(pol), always->delta_pct);
	fprintf(s, " %s at every length would %s; ", fi->string_op, pol);
	change(pol, sizeof(pol), oracle->delta_pct);
	fprintf(s, "the cheaper of the two implementations at every length (an oracle) would %s.",
		pol);
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
