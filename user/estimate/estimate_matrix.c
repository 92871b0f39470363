// SPDX-License-Identifier: GPL-2.0
/* estimate_matrix.c: the verdict across the conditions a mix was measured in (cache, working set) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_footprint.h"
#include "estimate_matrix.h"
#include "estimate_model.h"
#include "estimate_verdict.h"
#include "lib/jsonw.h"
#include "lib/num_format.h"

void est_matrix_apply(const struct est_options *o, struct est_family_result *fr,
		      const struct mixmeas *mm)
{
	size_t i;

	fr->unmeasured = 0;
	for (i = 0; i < fr->nr_rows; i++) {
		struct est_row *w = &fr->rows[i];
		struct policy_key key = est_policy_key(&w->pol);
		const struct mixmeas_row *mr = mixmeas_row_find(mm, &key);

		if (w->pol.kind == POLICY_ORACLE)
			continue;
		if (!mr || !isfinite(mr->quiet.delta_pct)) {
			fr->unmeasured++;
			continue;
		}
		w->measured = true;
		w->ci_known = true;
		w->delta_pct = mr->quiet.delta_pct;
		w->ci_low = w->pol.kind == POLICY_TODAY ? 0 : mr->quiet.ci_low;
		w->ci_high = w->pol.kind == POLICY_TODAY ? 0 : mr->quiet.ci_high;
		w->busy_pct = mr->busy.delta_pct;
	}
	est_family_choose_best(o, fr);
}

int est_matrix_read_cell(const struct est_options *o, const struct est_family_result *fr,
			 struct est_cell *c)
{
	struct est_family_result tmp = *fr;

	tmp.rows = malloc(fr->nr_rows * sizeof(*tmp.rows));
	if (!tmp.rows)
		return -ENOMEM;
	memcpy(tmp.rows, fr->rows, fr->nr_rows * sizeof(*tmp.rows));
	tmp.nr_sites = 0; /* the copy's choice of best leaves the site rows alone */
	tmp.meas = c->meas;
	tmp.nr_cells = 0; /* the cell's own figures alone */
	est_matrix_apply(o, &tmp, c->meas);
	c->kind = tmp.unmeasured >= est_family_timed_policies(&tmp) ? EST_VERDICT_NOT_MEASURED
								    : est_figures_read(&tmp);
	c->best = est_policy_key(&tmp.rows[tmp.best > 0 ? tmp.best : 0].pol);
	free(tmp.rows);
	return 0;
}

int est_matrix_footprint_cell(const struct est_family_result *fr)
{
	const char *cache;
	uint64_t ws;
	int own = -1;
	size_t i;

	if (!est_footprint_condition(fr->footprint_bytes, fr->footprint_l2, &cache, &ws))
		return -1;
	/*
	 * The cell of the smallest working set from that one up (the replay grows a set to hold
	 * its longest calls, and the stored one is the grown), in that cache state.
	 */
	for (i = 0; i < fr->nr_cells; i++) {
		const struct mixmeas *mm = fr->cells[i].meas;

		/* a cell that measured nothing (too few quiet rounds) is no answer for it */
		if (!mm->cache || strcmp(mm->cache, cache) || mm->ws_bytes < ws ||
		    fr->cells[i].kind == EST_VERDICT_NOT_MEASURED)
			continue;
		if (own < 0 || mm->ws_bytes < fr->cells[own].meas->ws_bytes)
			own = (int)i;
	}
	return own;
}

void est_matrix_collapse(struct est_family_result *fr)
{
	int own = est_matrix_footprint_cell(fr);
	struct est_cell keep;
	size_t i;

	fr->footprint_cell = own;
	if (own < 0 || (size_t)own >= fr->nr_cells)
		return;
	keep = fr->cells[own];
	for (i = 0; i < fr->nr_cells; i++) {
		if (i == (size_t)own)
			continue;
		if (fr->cells[i].pooled)
			mixmeas_free(fr->cells[i].pooled);
		free(fr->cells[i].pooled);
	}
	fr->cells[0] = keep;
	fr->nr_cells = 1;
}

size_t est_matrix_shown(const struct est_options *o, const struct est_family_result *fr)
{
	size_t i, best = 0;
	bool found = false;

	for (i = 0; i < fr->nr_cells; i++) {
		const struct mixmeas *mm = fr->cells[i].meas;

		if (!mm->cache || strcmp(mm->cache, o->cache.label))
			continue;
		/* A cell that measured nothing (too few quiet rounds) is never the one shown. */
		if (found && fr->cells[i].kind == EST_VERDICT_NOT_MEASURED)
			continue;
		if (found && fr->cells[best].kind == EST_VERDICT_NOT_MEASURED) {
			best = i;
			continue;
		}
		if (!found || mm->ws_bytes > fr->cells[best].meas->ws_bytes)
			best = i;
		found = true;
	}
	return best;
}

void est_matrix_conditions_text(const struct est_family_result *fr, char *buf, size_t len)
{
	char cond[96];
	size_t i, n = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < fr->nr_cells && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s", i ? "; " : "",
				      mixmeas_condition(fr->cells[i].meas, cond, sizeof(cond)),
				      fr->cells[i].kind == EST_VERDICT_NOT_MEASURED
					      ? " (nothing measured: too few quiet rounds)"
					      : "");
}

static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

json_object *est_matrix_to_json(const struct est_family_result *fr)
{
	json_object *a = json_object_new_array();
	struct policy_key p = est_verdict_contested(fr);
	char name[POLICY_NAME_LEN], best[POLICY_NAME_LEN];
	size_t i;

	policy_key_name(&p, name, sizeof(name));
	for (i = 0; i < fr->nr_cells; i++) {
		const struct est_cell *c = &fr->cells[i];
		const struct mixmeas_row *r = mixmeas_row_find(c->meas, &p);
		json_object *o = json_object_new_object();

		jsonw_put_str(o, "cache", c->meas->cache);
		json_object_object_add(o, "working_set_bytes",
				       json_object_new_uint64(c->meas->ws_bytes));
		jsonw_put_str(o, "verdict", est_verdict_name((enum est_verdict_kind)c->kind));
		policy_key_name(&c->best, best, sizeof(best));
		jsonw_put_str(o, "best", best);
		json_object_object_add(o, "shown", json_object_new_boolean(i == fr->shown));
		jsonw_put_str(o, "policy", name);
		json_object_object_add(o, "delta_pct", num(r ? r->quiet.delta_pct : NAN));
		json_object_object_add(o, "ci_low", num(r ? r->quiet.ci_low : NAN));
		json_object_object_add(o, "ci_high", num(r ? r->quiet.ci_high : NAN));
		json_object_array_add(a, o);
	}
	return a;
}
