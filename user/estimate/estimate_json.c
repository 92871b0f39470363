// SPDX-License-Identifier: GPL-2.0
/* estimate_json.c: estimate --json, one object per input (docs/estimate.md#json) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/count_sum.h"
#include "estimate_dist.h"
#include "estimate_family.h"
#include "estimate_json.h"
#include "estimate_footprint.h"
#include "estimate_matrix.h"
#include "estimate_program.h"
#include "estimate_summary.h"
#include "estimate_verdict.h"
#include "profile/profile_glibc.h"

static void put_str(json_object *o, const char *key, const char *val)
{
	json_object_object_add(o, key, val ? json_object_new_string(val) : NULL);
}

static json_object *rule_value(const struct glibc_value *v)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "value", v->known ? json_object_new_uint64(v->value) : NULL);
	put_str(o, "why", v->why);
	return o;
}

/* Every threshold the version's rules give on the profile's CPU, each with how. */
static json_object *defaults_json(const struct glibc_defaults *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "rep_movsb_threshold", rule_value(&d->rep_movsb));
	json_object_object_add(o, "rep_movsb_stop_threshold", rule_value(&d->stop));
	json_object_object_add(o, "non_temporal_threshold", rule_value(&d->non_temporal));
	json_object_object_add(o, "rep_stosb_threshold", rule_value(&d->rep_stosb));
	json_object_object_add(o, "memset_non_temporal_threshold",
			       rule_value(&d->memset_non_temporal));
	return o;
}

/* glibc's version, the rules used, where today's threshold came from, the rule's value. */
static void put_glibc_version(json_object *g, const struct est_family_result *fr,
			      const struct est_input *in)
{
	const struct est_glibc_today *t = &fr->glibc;
	char v[32];

	if (t->major) {
		snprintf(v, sizeof(v), "%u.%u", t->major, t->minor);
		put_str(g, "version", v);
	} else {
		json_object_object_add(g, "version", NULL);
	}
	snprintf(v, sizeof(v), "%u.%u", t->rules_major, t->rules_minor);
	put_str(g, "rules", v);
	json_object_object_add(g, "rules_exact", json_object_new_boolean(t->rules_exact));
	put_str(g, "today_from",
		t->from == EST_GLIBC_FROM_TUNABLES  ? "tunables"
		: t->from == EST_GLIBC_FROM_DEFAULT ? "default_recorded"
						    : "version_rule");
	json_object_object_add(g, "rule_default",
			       t->rule.known ? json_object_new_uint64(t->rule.value) : NULL);
	put_str(g, "rule_why", t->rule.why);
	json_object_object_add(g, "rule_defaults", defaults_json(&t->defaults));
	if (t->note[0])
		put_str(g, "note", t->note);
	if (in && in->glibc) {
		put_str(g, "release", in->glibc->release);
		put_str(g, "build_id", in->glibc->build_id);
		put_str(g, "root", in->glibc->root);
	}
}

/* Numbers rounded for reading: 4 decimals are far below any measured effect. */
static json_object *num(double v)
{
	char buf[48];

	snprintf(buf, sizeof(buf), "%.4f", v);
	return json_object_new_double_s(v, buf);
}

static void put_num(json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, num(v));
}

/* A number the model may lack (NAN: a cache state without a curve) as null. */
static void put_num_or_null(json_object *o, const char *key, double v)
{
	if (isfinite(v))
		put_num(o, key, v);
	else
		json_object_object_add(o, key, NULL);
}

static const char *kind_name(enum policy_kind k)
{
	static const char *const names[] = { "today", "always", "threshold", "oracle" };

	return names[k];
}

static json_object *row_to_json(const struct est_row *w, const struct est_family_result *fr, int i)
{
	json_object *o = json_object_new_object();
	bool model_ci;

	put_str(o, "name", w->pol.name);
	put_str(o, "kind", kind_name(w->pol.kind));
	if (w->pol.kind == POLICY_THRESHOLD && w->pol.threshold != POLICY_NEVER)
		json_object_object_add(o, "threshold", json_object_new_uint64(w->pol.threshold));
	else
		json_object_object_add(o, "threshold", NULL);
	put_num(o, "total_ns", w->total_ns);
	put_num(o, "ns_per_call", w->ns_per_call);
	put_num(o, "delta_ns", w->delta_ns);
	put_num(o, "delta_pct", w->delta_pct);
	/* No interval (curves without noise, no counts): null, never a .. a. */
	put_num_or_null(o, "ci_low", w->ci_known ? w->ci_low : NAN);
	put_num_or_null(o, "ci_high", w->ci_known ? w->ci_high : NAN);
	put_num(o, "bound_ns", w->bound_ns);
	json_object_object_add(o, "measured", json_object_new_boolean(w->measured));
	put_num(o, "model_pct", w->model_pct);
	model_ci = fabs(w->model_ci_high - w->model_ci_low) > 1e-9 || fabs(w->model_pct) < 1e-9;
	put_num_or_null(o, "model_ci_low", model_ci ? w->model_ci_low : NAN);
	put_num_or_null(o, "model_ci_high", model_ci ? w->model_ci_high : NAN);
	if (w->measured && isfinite(w->busy_pct))
		put_num(o, "busy_pct", w->busy_pct);
	if (i >= 0 && fr->validate_pct && isfinite(fr->validate_pct[i])) {
		put_num(o, "validate_pct", fr->validate_pct[i]);
		put_num(o, "validate_ci_low", fr->validate_lo[i]);
		put_num(o, "validate_ci_high", fr->validate_hi[i]);
		put_num(o, "validate_off_pct", w->delta_pct - fr->validate_pct[i]);
	}
	return o;
}

/* A site's own measured figure at the family's "at", or null: not measured, no verdict. */
static json_object *site_measured_to_json(const struct est_family_result *fr,
					  const struct est_site_row *s)
{
	static const char *const keys[] = { "not_measured", "saves", "costs", "no_difference" };
	struct est_site_measured sm = est_site_measured(fr, s);
	json_object *o;

	if (sm.verdict == EST_SITE_NOT_MEASURED)
		return NULL;
	o = json_object_new_object();
	put_str(o, "policy", fr->rows[fr->at].pol.name);
	put_num(o, "delta_pct", sm.fig.delta_pct);
	put_num(o, "ci_low", sm.fig.ci_low);
	put_num(o, "ci_high", sm.fig.ci_high);
	put_str(o, "verdict", keys[sm.verdict]);
	json_object_object_add(o, "whole_mix", json_object_new_boolean(sm.meas == fr->meas));
	json_object_object_add(o, "rounds", json_object_new_uint64(sm.meas->rounds));
	json_object_object_add(o, "quiet_rounds", json_object_new_uint64(sm.meas->quiet_rounds));
	json_object_object_add(o, "sittings", json_object_new_uint64(sm.meas->sittings));
	/* The whole measured in several conditions: the site's figure holds in its own alone. */
	if (fr->nr_cells > 1) {
		char c[96];

		put_str(o, "condition", mixmeas_condition(sm.meas, c, sizeof(c)));
	}
	return o;
}

static json_object *sites_to_json(const struct est_family_result *fr, bool counted)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < fr->nr_sites; i++) {
		const struct est_site_row *s = &fr->sites[i];
		json_object *o = json_object_new_object();

		put_str(o, "site", s->site->label);
		if (fr->samples > 0)
			json_object_object_add(o, "calls",
					       count_sum_json(count_sum_from_double(s->calls)));
		else if (counted)
			json_object_object_add(o, "calls",
					       count_sum_json(count_sum_from_double(s->calls)));
		else
			put_num(o, "calls", s->calls);
		put_num(o, "today_ns", s->today_ns);
		put_num(o, "at_ns", s->at_ns);
		/* modelled, at the family's "at": never a verdict (docs/estimate.md#per-site) */
		put_num(o, "model_pct",
			s->today_ns > 0 ? 100 * (s->at_ns - s->today_ns) / s->today_ns : 0);
		json_object_object_add(o, "measured", site_measured_to_json(fr, s));
		json_object_array_add(a, o);
	}
	return a;
}

/* The paired measurement behind the answer (docs/estimate.md#json), or why there is none. */
static json_object *measurement_to_json(const struct est_family_result *fr)
{
	json_object *o;

	if (!fr->meas) {
		o = json_object_new_object();
		json_object_object_add(o, "applied", json_object_new_boolean(false));
		put_str(o, "why", fr->meas_why);
		return o;
	}
	o = mixmeas_to_json(fr->meas);
	json_object_object_add(o, "applied", json_object_new_boolean(true));
	json_object_object_add(o, "unmeasured_policies", json_object_new_uint64(fr->unmeasured));
	return o;
}

/* The verdict (docs/estimate.md#the-verdict): the same sentence as the text's. */
static json_object *verdict_to_json(const struct est_family_result *fr)
{
	json_object *v = json_object_new_object();
	enum est_verdict_kind k = est_verdict(fr);
	char text[EST_VERDICT_TEXT_LEN];
	size_t i;

	est_verdict_text(fr, text, sizeof(text));
	put_str(v, "kind", est_verdict_name(k));
	put_str(v, "text", text);
	put_str(v, "policy", k == EST_VERDICT_SAVES ? fr->rows[fr->best].pol.name : NULL);
	/* What a caller that records until it has a verdict waits for (examples/main-job.sh). */
	if (k == EST_VERDICT_TOO_FEW_SAMPLES)
		json_object_object_add(v, "min_samples", json_object_new_int(EST_MIN_SAMPLES));
	if (k == EST_VERDICT_SAVES) {
		put_num(v, "saving_pct", -fr->rows[fr->best].delta_pct);
		put_num(v, "saving_ci_low", -fr->rows[fr->best].ci_high);
		put_num(v, "saving_ci_high", -fr->rows[fr->best].ci_low);
	}
	for (i = 0; i < fr->nr_rows; i++)
		if (fr->rows[i].pol.kind == POLICY_THRESHOLD && fr->rows[i].pol.threshold == 0 &&
		    fr->nr_rows > 1)
			put_num(v, "dispatch_cost_pct",
				fr->rows[i].delta_pct - fr->rows[1].delta_pct);
	if (k == EST_VERDICT_NOT_MEASURED)
		put_str(v, "measure_command", fr->measure_cmd[0] ? fr->measure_cmd : NULL);
	/* Several conditions measured: each one's reading, the verdict only where all agree. */
	if (fr->nr_cells > 1)
		json_object_object_add(v, "conditions", est_matrix_to_json(fr));
	json_object_object_add(v, "footprint", est_footprint_to_json(fr));
	switch (est_glibc_advice(fr, text, sizeof(text))) {
	case EST_GLIBC_NOT_GLIBC:
	case EST_GLIBC_UNMEASURED: /* no advice, and nothing to ship, from a model */
		break;
	case EST_GLIBC_SET: /* a line to ship only when one is needed */
		put_str(v, "to_ship", text);
		/* fall through */
	default:
		put_str(v, "advice", text);
	}
	return v;
}

/* The program-level figure (estimate_program.h); {"known": false, "why"} without one. */
static json_object *program_to_json(const struct est_report *r, const struct est_family_result *fr)
{
	json_object *o = json_object_new_object();
	struct est_program pg;

	est_program_figure(r->in, fr, est_program_row(fr), &pg);
	json_object_object_add(o, "known", json_object_new_boolean(pg.known));
	if (!pg.known) {
		put_str(o, "why", pg.why);
		return o;
	}
	put_num(o, "cpu_s", pg.cpu_s);
	put_num(o, "probe_cpu_s", pg.probe_cpu_s);
	put_num(o, "own_cpu_s", pg.own_cpu_s);
	put_num(o, "copy_s", pg.copy_s);
	put_num(o, "copy_share_pct", pg.share_pct);
	put_str(o, "copy_share_from", pg.from == EST_SHARE_TRACED ? "sampled_traced" : "modelled");
	if (pg.from == EST_SHARE_TRACED)
		json_object_object_add(o, "copy_share_samples", json_object_new_uint64(pg.samples));
	put_str(o, "policy", fr->rows[pg.row].pol.name);
	json_object_object_add(o, "measured", json_object_new_boolean(pg.measured));
	put_num(o, "copy_pct", pg.copy_pct);
	put_num(o, "predicted_pct", pg.pct);
	if (pg.ci_known) {
		put_num(o, "ci_low", pg.lo);
		put_num(o, "ci_high", pg.hi);
	}
	return o;
}

static json_object *family_to_json(const struct est_report *r, const struct est_family_result *fr)
{
	json_object *o = json_object_new_object(), *today = json_object_new_object();
	json_object *rows = json_object_new_array(), *flat = json_object_new_object();
	char *summary;
	size_t i;

	put_str(o, "family", est_family(fr->family)->name);
	put_str(today, "impl", fr->today_impl);
	put_str(today, "why", fr->today_why);
	json_object_object_add(today, "approximate", json_object_new_boolean(fr->today_approx));
	put_str(today, "from", est_today_from_name(fr->today_src.from));
	put_str(today, "glibc_symbol", fr->today_src.glibc_symbol);
	put_str(today, "ifunc_rule", fr->today_src.rule[0] ? fr->today_src.rule : NULL);
	json_object_object_add(o, "today", today);
	if (fr->impls->glibc) {
		json_object *g = json_object_new_object();

		put_str(g, "tunable", fr->impls->tunable);
		json_object_object_add(g, "today", json_object_new_uint64(fr->today_knob));
		json_object_object_add(g, "today_recorded",
				       json_object_new_boolean(fr->today_knob_known));
		json_object_object_add(g, "default", json_object_new_uint64(fr->knob_default));
		json_object_object_add(g, "min", json_object_new_uint64(fr->knob_min));
		json_object_object_add(g, "min_excluded",
				       json_object_new_boolean(fr->knob_strict_min));
		json_object_object_add(g, "max", json_object_new_uint64(fr->knob_max));
		json_object_object_add(g, "refused_thresholds",
				       json_object_new_int64((int64_t)fr->refused_thresholds));
		put_glibc_version(g, fr, r->in);
		json_object_object_add(o, "glibc", g);
	}
	if (fr->samples > 0) {
		/* Inferred from samples: a whole number, and said to be inferred, and how. */
		json_object_object_add(o, "calls",
				       count_sum_json(count_sum_from_double(fr->calls)));
		json_object_object_add(o, "calls_inferred", json_object_new_boolean(true));
		put_str(o, "calls_assumption", r->o->cache.label);
		json_object_object_add(o, "samples",
				       count_sum_json(count_sum_from_double(fr->samples)));
	} else if (est_input_counted(r->in, fr->family)) {
		/* Counted calls are a whole number, written whole past 2^64 (count_sum.h). */
		json_object_object_add(o, "calls",
				       count_sum_json(count_sum_from_double(fr->calls)));
	} else {
		put_num(o, "calls", fr->calls);
	}
	if (fr->share >= 0)
		put_num(o, "share", fr->share);
	json_object_object_add(o, "dispatch_measured",
			       json_object_new_boolean(fr->dispatch_measured));
	put_num(o, "dispatch_lo_ns", fr->dispatch_lo_ns);
	put_num(o, "dispatch_hi_ns", fr->dispatch_hi_ns);
	put_str(o, "mix_digest", fr->digest);
	if (fr->cache_note[0])
		put_str(o, "cache_note", fr->cache_note);
	json_object_object_add(o, "measurement", measurement_to_json(fr));
	json_object_object_add(o, "distance", est_dist_to_json(fr));
	for (i = 0; i < fr->nr_rows; i++)
		json_object_array_add(rows, row_to_json(&fr->rows[i], fr, (int)i));
	json_object_object_add(o, "policies", rows);
	if (fr->best < 0)
		return o;
	json_object_object_add(o, "verdict", verdict_to_json(fr));
	json_object_object_add(o, "best", row_to_json(&fr->rows[fr->best], fr, -1));
	json_object_object_add(o, "program", program_to_json(r, fr));
	if (fr->validation) {
		json_object *v = mixmeas_to_json(fr->validation);

		put_num_or_null(v, "noise_floor_pct", fr->noise_floor_pct);
		put_num_or_null(v, "state_gap_pct", fr->validate_state_pct);
		json_object_object_add(o, "validation", v);
	}
	json_object_object_add(flat, "lo",
			       fr->flat_lo == POLICY_NEVER ? NULL
							   : json_object_new_uint64(fr->flat_lo));
	json_object_object_add(flat, "hi",
			       fr->flat_hi == POLICY_NEVER ? NULL
							   : json_object_new_uint64(fr->flat_hi));
	json_object_object_add(o, "within_1pct", flat);
	put_str(o, "at", fr->rows[fr->at].pol.name);
	json_object_object_add(
		o, "sites",
		sites_to_json(fr, fr->samples <= 0 && est_input_counted(r->in, fr->family)));
	summary = est_summary_text(r, fr);
	put_str(o, "summary", summary);
	free(summary);
	return o;
}

json_object *est_report_to_json(const struct est_report *r)
{
	json_object *o = json_object_new_object(), *fams = json_object_new_array();
	size_t i;

	json_object *cm = json_object_new_object();

	put_str(o, "name", r->in->name);
	put_str(cm, "file", r->model_name);
	put_str(cm, "cpu_model", r->m->meta.cpu_model);
	json_object_object_add(cm, "measured", json_object_new_boolean(r->m->measured));
	json_object_object_add(o, "cost_model", cm);
	put_str(o, "kernel", r->in->meta.kernel);
	put_str(o, "cpu_model", r->in->meta.cpu_model);
	if (r->in->duration_s > 0)
		put_num(o, "duration_s", r->in->duration_s);
	for (i = 0; i < r->nr_fam; i++)
		json_object_array_add(fams, family_to_json(r, &r->fam[i]));
	json_object_object_add(o, "families", fams);
	return o;
}

json_object *est_json_document(const struct est_cache *cache, json_object *inputs)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "format", json_object_new_string("copyprof-estimate"));
	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "cache", json_object_new_string(cache->label));
	json_object_object_add(root, "inputs", json_object_get(inputs));
	return root;
}
