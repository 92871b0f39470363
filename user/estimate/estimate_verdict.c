// SPDX-License-Identifier: GPL-2.0
/* estimate_verdict.c: the one-line verdict of an estimate, which never claims beyond its interval */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "costmodel/mixmeas.h"
#include "estimate_verdict.h"

/* A row the verdict reads: not the oracle, and measured where a measurement applies. */
static bool counts(const struct est_family_result *fr, const struct est_row *w)
{
	return w->pol.kind != POLICY_ORACLE && (!fr->meas || w->measured);
}

enum est_verdict_kind est_figures_read(const struct est_family_result *fr)
{
	size_t i, others = 0;

	if (fr->samples > 0 && fr->samples < EST_MIN_SAMPLES)
		return EST_VERDICT_TOO_FEW_SAMPLES;
	if (fr->best > 0 && counts(fr, &fr->rows[fr->best]) &&
	    est_row_saves(fr, &fr->rows[fr->best]))
		return EST_VERDICT_SAVES;
	for (i = 1; i < fr->nr_rows; i++) {
		const struct est_row *w = &fr->rows[i];

		if (!counts(fr, w) || est_row_runs_today(w))
			continue;
		others++;
		if (!est_row_costs(fr, w))
			return EST_VERDICT_NO_DIFFERENCE;
	}
	/* Every policy runs today's very code on these lengths: nothing differs, nothing costs. */
	return others ? EST_VERDICT_KEEP_TODAY : EST_VERDICT_NO_DIFFERENCE;
}

/*
 * What a cell tells the user to do: ship its best policy (saves), keep today's code (keep today,
 * no difference) or nothing yet. Two cells that read "every threshold costs more" and "none
 * saves beyond the noise" tell the same thing: keep today's code.
 */
static bool same_decision(const struct est_cell *a, const struct est_cell *b)
{
	bool keep_a = a->kind == EST_VERDICT_KEEP_TODAY || a->kind == EST_VERDICT_NO_DIFFERENCE;
	bool keep_b = b->kind == EST_VERDICT_KEEP_TODAY || b->kind == EST_VERDICT_NO_DIFFERENCE;

	if (keep_a || keep_b)
		return keep_a && keep_b;
	return a->kind == b->kind &&
	       (a->kind != EST_VERDICT_SAVES || policy_key_same(&a->best, &b->best));
}

/* The verdict across the conditions a mix was measured in (estimate_matrix.h). */
size_t est_matrix_measured_cells(const struct est_family_result *fr)
{
	size_t i, n = 0;

	for (i = 0; i < fr->nr_cells; i++)
		n += fr->cells[i].kind != EST_VERDICT_NOT_MEASURED;
	return n;
}

/* The first cell that measured something, or NULL. */
static const struct est_cell *first_measured(const struct est_family_result *fr)
{
	size_t i;

	for (i = 0; i < fr->nr_cells; i++)
		if (fr->cells[i].kind != EST_VERDICT_NOT_MEASURED)
			return &fr->cells[i];
	return NULL;
}

/* Over the cells that measured something: a cell that measured nothing neither agrees nor not. */
bool est_verdict_holds_across(const struct est_family_result *fr)
{
	const struct est_cell *a = first_measured(fr);
	size_t i;

	for (i = 0; a && i < fr->nr_cells; i++)
		if (fr->cells[i].kind != EST_VERDICT_NOT_MEASURED &&
		    !same_decision(a, &fr->cells[i]))
			return false;
	return true;
}

/* True if the cells agree on keeping today's code but not on why (some within the noise). */
static bool keep_for_mixed_reasons(const struct est_family_result *fr)
{
	const struct est_cell *a = first_measured(fr);
	size_t i;

	for (i = 0; a && i < fr->nr_cells; i++)
		if (fr->cells[i].kind != EST_VERDICT_NOT_MEASURED && fr->cells[i].kind != a->kind)
			return true;
	return false;
}

/* The policy the cells disagree on: the first saving cell's, else the rows' cheapest other. */
struct policy_key est_verdict_contested(const struct est_family_result *fr)
{
	size_t i;

	for (i = 0; i < fr->nr_cells; i++)
		if (fr->cells[i].kind == EST_VERDICT_SAVES)
			return fr->cells[i].best;
	return est_policy_key(&fr->rows[fr->at >= 0 ? fr->at : 0].pol);
}

/* "saves", "costs" or "within the noise": @f read against @mm's A/A control. */
static const char *reading(const struct mixmeas *mm, const struct mixmeas_figure *f)
{
	struct est_row w = { .delta_pct = f->delta_pct,
			     .ci_low = f->ci_low,
			     .ci_high = f->ci_high,
			     .measured = true };
	struct est_family_result one = { .meas = mm };

	return est_row_saves(&one, &w) ? "saves" : est_row_costs(&one, &w) ? "costs" : "noise";
}

/* What the cells differ in: "working set", "cache state" or both. */
static const char *differ_in(const struct est_family_result *fr)
{
	bool ws = false, cache = false;
	size_t i;

	for (i = 1; i < fr->nr_cells; i++) {
		const struct mixmeas *a = fr->cells[0].meas, *b = fr->cells[i].meas;

		ws |= a->ws_bytes != b->ws_bytes;
		cache |= !a->cache || !b->cache || strcmp(a->cache, b->cache);
	}
	return ws && cache ? "working set and cache state" : ws ? "working set" : "cache state";
}

static void depends_text(const struct est_family_result *fr, char *buf, size_t len)
{
	struct policy_key p = est_verdict_contested(fr);
	char name[POLICY_NAME_LEN], cond[96];
	size_t i, n;

	policy_key_name(&p, name, sizeof(name));
	n = (size_t)snprintf(buf, len, "it depends on the %s:", differ_in(fr));
	for (i = 0; i < fr->nr_cells && n < len; i++) {
		const struct mixmeas *mm = fr->cells[i].meas;
		const struct mixmeas_row *r = mixmeas_row_find(mm, &p);
		const char *sep = i ? ";" : "";
		const char *how;

		mixmeas_condition(mm, cond, sizeof(cond));
		if (!r || !isfinite(r->quiet.delta_pct)) {
			n += (size_t)snprintf(buf + n, len - n, "%s %s: %s not measured", sep, cond,
					      name);
			continue;
		}
		how = reading(mm, &r->quiet);
		if (!strcmp(how, "saves"))
			n += (size_t)snprintf(buf + n, len - n,
					      "%s %s: %s saves %.2f%% (95%% CI %.2f .. %.2f)", sep,
					      cond, name, -r->quiet.delta_pct, -r->quiet.ci_high,
					      -r->quiet.ci_low);
		else if (!strcmp(how, "costs"))
			n += (size_t)snprintf(buf + n, len - n,
					      "%s %s: %s costs %.2f%% (95%% CI %.2f .. %.2f)", sep,
					      cond, name, r->quiet.delta_pct, r->quiet.ci_low,
					      r->quiet.ci_high);
		else
			n += (size_t)snprintf(buf + n, len - n,
					      "%s %s: %s %+.2f%%, no difference beyond the noise "
					      "(95%% CI %+.2f .. %+.2f)",
					      sep, cond, name, r->quiet.delta_pct, r->quiet.ci_low,
					      r->quiet.ci_high);
	}
}

/* "keep today's code: no threshold saves in any of the 3 conditions measured (cond: ...; ...)" */
static void keep_everywhere_text(const struct est_family_result *fr, char *buf, size_t len)
{
	char cond[96];
	size_t i, n;

	n = (size_t)snprintf(buf, len,
			     "keep today's code: no threshold saves in any of the %zu conditions "
			     "measured (",
			     est_matrix_measured_cells(fr));
	for (i = 0; i < fr->nr_cells && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s: %s", i ? "; " : "",
				      mixmeas_condition(fr->cells[i].meas, cond, sizeof(cond)),
				      fr->cells[i].kind == EST_VERDICT_KEEP_TODAY
					      ? "every threshold costs more"
				      : fr->cells[i].kind == EST_VERDICT_NOT_MEASURED
					      ? "nothing measured"
					      : "none saves beyond the noise");
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

enum est_verdict_kind est_verdict(const struct est_family_result *fr)
{
	enum est_verdict_kind k = est_figures_read(fr);

	if (k != EST_VERDICT_TOO_FEW_SAMPLES &&
	    (!fr->meas || fr->unmeasured >= est_family_timed_policies(fr)))
		return EST_VERDICT_NOT_MEASURED;
	if (k == EST_VERDICT_TOO_FEW_SAMPLES || fr->nr_cells < 2)
		return k;
	if (!est_verdict_holds_across(fr))
		return EST_VERDICT_DEPENDS;
	/* Keep today's code everywhere: the weaker reading where the cells differ in it. */
	return keep_for_mixed_reasons(fr) ? EST_VERDICT_NO_DIFFERENCE : k;
}

/* Appends @name to @names (the first three; the rest counted in @n). */
static void add_name(char *names, size_t len, size_t *n, const char *name)
{
	size_t k = strlen(names);

	if ((*n)++ < 3)
		snprintf(names + k, len - k, "%s%s", k ? ", " : "", name);
}

/* "T=0, T=32, T=64 and 9 more" */
static void more(char *names, size_t len, size_t n)
{
	size_t k = strlen(names);

	if (n > 3)
		snprintf(names + k, len - k, " and %zu more", n - 3);
}

void est_no_difference_words(const struct est_family_result *fr, const char *today, char *buf,
			     size_t len)
{
	char within[128] = "", costs[128] = "";
	size_t i, nw = 0, nc = 0;

	for (i = 1; i < fr->nr_rows; i++) {
		const struct est_row *w = &fr->rows[i];

		if (!counts(fr, w) || est_row_runs_today(w))
			continue;
		if (est_row_costs(fr, w))
			add_name(costs, sizeof(costs), &nc, w->pol.name);
		else
			add_name(within, sizeof(within), &nw, w->pol.name);
	}
	if (!nc && !nw) {
		snprintf(buf, len,
			 "no threshold changes the code these copies run: every policy runs %s on "
			 "every recorded length",
			 today);
		return;
	}
	if (!nc) {
		snprintf(buf, len, "no threshold differs from %s beyond the measurement noise",
			 today);
		return;
	}
	more(within, sizeof(within), nw);
	more(costs, sizeof(costs), nc);
	snprintf(buf, len,
		 "no threshold saves against %s beyond the measurement noise (%s within it; %s "
		 "cost%s more)",
		 today, within, costs, nc == 1 ? "s" : "");
}

const char *est_verdict_name(enum est_verdict_kind k)
{
	static const char *const names[] = { "saves",		"no_difference", "keep_today",
					     "too_few_samples", "not_measured",	 "depends" };

	return names[k];
}

/* No verdict: the figures are modelled, and what would measure this mix. */
static void not_measured_text(const struct est_family_result *fr, char *buf, size_t len)
{
	const char *cpu = fr->model_cpu ? fr->model_cpu : "the cost model's CPU";

	if (fr->meas)
		snprintf(buf, len,
			 "none: the paired measurement of this mix measured no policy (too few "
			 "rounds found the core quiet); measure it again on a quieter CPU%s%s",
			 fr->measure_cmd[0] ? ": " : "", fr->measure_cmd);
	else if (fr->model_published)
		snprintf(buf, len,
			 "none: modelled on the published curves of %s; a verdict needs a paired "
			 "measurement of this mix on that CPU",
			 cpu);
	else if (fr->meas_stored)
		snprintf(buf, len,
			 "none: the figures are modelled (--model-only); the cost model stores a "
			 "paired measurement of this mix: estimate without --model-only answers");
	else if (fr->measure_cmd[0])
		snprintf(buf, len,
			 "none: the figures are modelled; measure this mix on %s with: %s", cpu,
			 fr->measure_cmd);
	else
		snprintf(buf, len, "none: the figures are modelled (%s)", fr->meas_why);
}

void est_verdict_text(const struct est_family_result *fr, char *buf, size_t len)
{
	const struct est_row *b = fr->best > 0 ? &fr->rows[fr->best] : NULL;

	switch (est_verdict(fr)) {
	case EST_VERDICT_SAVES:
		snprintf(buf, len, "%s saves %.2f%% (95%% CI %.2f .. %.2f)", b->pol.name,
			 -b->delta_pct, -b->ci_high, -b->ci_low);
		break;
	case EST_VERDICT_NO_DIFFERENCE:
		if (fr->nr_cells > 1 && keep_for_mixed_reasons(fr))
			keep_everywhere_text(fr, buf, len);
		else
			est_no_difference_words(fr, "today's code", buf, len);
		break;
	case EST_VERDICT_KEEP_TODAY:
		snprintf(buf, len, "every threshold costs more: keep today's code");
		break;
	case EST_VERDICT_TOO_FEW_SAMPLES:
		snprintf(buf, len,
			 "too few samples (%.0f, fewer than %d) for a verdict: record longer",
			 fr->samples, EST_MIN_SAMPLES);
		break;
	case EST_VERDICT_NOT_MEASURED:
		not_measured_text(fr, buf, len);
		break;
	case EST_VERDICT_DEPENDS:
		depends_text(fr, buf, len);
		break;
	}
}

bool est_row_within(const struct est_row *w, double v)
{
	return v >= w->ci_low - 1e-9 && v <= w->ci_high + 1e-9;
}

enum est_glibc_action est_glibc_advice(const struct est_family_result *fr, char *line, size_t len)
{
	const struct est_row *b = fr->best > 0 ? &fr->rows[fr->best] : NULL;
	const char *name = fr->impls ? fr->impls->tunable : NULL;

	if (!fr->impls || !fr->impls->glibc || !name)
		return EST_GLIBC_NOT_GLIBC;
	if (est_verdict(fr) == EST_VERDICT_NOT_MEASURED) {
		if (len)
			line[0] = '\0';
		return EST_GLIBC_UNMEASURED;
	}
	if (est_verdict(fr) == EST_VERDICT_DEPENDS) {
		snprintf(line, len,
			 "nothing to ship: the verdict depends on the working set and cache state "
			 "the copies find (keep today's setting, %s=%llu, unless the workload's "
			 "condition is known)",
			 name, (unsigned long long)fr->today_knob);
		return EST_GLIBC_DEPENDS;
	}
	if (est_verdict(fr) != EST_VERDICT_SAVES || !b || b->pol.kind != POLICY_THRESHOLD) {
		snprintf(line, len,
			 "keep today's setting (%s=%llu): no GLIBC_TUNABLES line to ship", name,
			 (unsigned long long)fr->today_knob);
		return EST_GLIBC_KEEP;
	}
	if (b->pol.threshold == fr->knob_default) {
		snprintf(
			line, len,
			"drop %s from GLIBC_TUNABLES: glibc's default, %llu, is the best threshold",
			name, (unsigned long long)fr->knob_default);
		return EST_GLIBC_DROP;
	}
	snprintf(line, len, "GLIBC_TUNABLES=%s=%llu", name,
		 b->pol.threshold == POLICY_NEVER ? (unsigned long long)UINT64_MAX
						  : (unsigned long long)b->pol.threshold);
	return EST_GLIBC_SET;
}
