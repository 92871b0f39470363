// SPDX-License-Identifier: GPL-2.0
/* estimate_result.c: a family's estimate freed, with what it holds; which rows differ from today */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_policy.h"
#include "estimate_result.h"

void est_family_result_free(struct est_family_result *r)
{
	size_t i;

	for (i = 0; r->sites && i < r->nr_sites; i++) {
		if (r->sites[i].pooled)
			mixmeas_free(r->sites[i].pooled);
		free(r->sites[i].pooled);
	}
	free(r->rows);
	free(r->sites);
	free(r->site_ns);
	free(r->bucket_calls);
	free(r->bucket_bytes);
	free(r->exact);
	free(r->order_runs);
	free(r->validate_pct);
	free(r->validate_lo);
	free(r->validate_hi);
	if (r->pooled)
		mixmeas_free(r->pooled);
	free(r->pooled);
	for (i = 0; i < r->nr_cells; i++) {
		if (r->cells[i].pooled)
			mixmeas_free(r->cells[i].pooled);
		free(r->cells[i].pooled);
	}
	memset(r, 0, sizeof(*r));
}

size_t est_family_timed_policies(const struct est_family_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr_rows; i++)
		n += r->rows[i].pol.kind != POLICY_TODAY && r->rows[i].pol.kind != POLICY_ORACLE;
	return n;
}

/*
 * The band a measured row must leave to differ from today: the measurement's A/A control
 * (today's code against itself in the same rounds, its 95% interval), widened to hold 0; for a
 * modelled row, 0 alone. On a disturbed host the control's interval widens with everything
 * else: glibc's 1-16 KiB mix measured T=513 at -0.30% (-3.90 .. -0.07) beside a control of
 * -0.10% (-5.89 .. +0.09), and glibc's real knob showed no difference (bench/glibc_truth.sh).
 */
static double noise_low(const struct est_family_result *r, const struct est_row *w)
{
	return w->measured && r->meas ? fmin(0, r->meas->control.ci_low) : 0;
}

static double noise_high(const struct est_family_result *r, const struct est_row *w)
{
	return w->measured && r->meas ? fmax(0, r->meas->control.ci_high) : 0;
}

bool est_row_saves(const struct est_family_result *r, const struct est_row *w)
{
	return w->ci_high < noise_low(r, w);
}

bool est_row_runs_today(const struct est_row *w)
{
	return fabs(w->delta_pct) < 1e-9 && fabs(w->ci_low) < 1e-9 && fabs(w->ci_high) < 1e-9;
}

bool est_row_costs(const struct est_family_result *r, const struct est_row *w)
{
	return w->ci_low > noise_high(r, w);
}

struct est_site_measured est_site_measured(const struct est_family_result *r,
					   const struct est_site_row *s)
{
	struct est_site_measured out = { .verdict = EST_SITE_NOT_MEASURED };
	const struct mixmeas_row *mr;
	struct policy_key key;

	if (!s->meas || r->at < 0 || (size_t)r->at >= r->nr_rows)
		return out;
	key = est_policy_key(&r->rows[r->at].pol);
	mr = mixmeas_row_find(s->meas, &key);
	if (!mr || !isfinite(mr->quiet.delta_pct) || !isfinite(mr->quiet.ci_low) ||
	    !isfinite(mr->quiet.ci_high))
		return out;
	out.meas = s->meas;
	out.fig = mr->quiet;
	if (mr->quiet.ci_high < fmin(0, s->meas->control.ci_low))
		out.verdict = EST_SITE_SAVES;
	else if (mr->quiet.ci_low > fmax(0, s->meas->control.ci_high))
		out.verdict = EST_SITE_COSTS;
	else
		out.verdict = EST_SITE_SAME;
	return out;
}

const char *est_site_verdict_name(enum est_site_verdict v)
{
	static const char *const names[] = { "not measured", "saves", "costs", "no difference" };

	return names[v];
}
