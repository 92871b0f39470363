// SPDX-License-Identifier: GPL-2.0
/* estimate_json.c: estimate --json, one object per input (docs/estimate.md#json) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "estimate_corr.h"
#include "estimate_family.h"
#include "estimate_json.h"
#include "estimate_summary.h"
#include "estimate_validation.h"
#include "estimate_verdict.h"

static void put_str(json_object *o, const char *key, const char *val)
{
	json_object_object_add(o, key, val ? json_object_new_string(val) : NULL);
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

static const char *kind_name(enum est_kind k)
{
	static const char *const names[] = { "today", "always", "threshold", "oracle" };

	return names[k];
}

static json_object *row_to_json(const struct est_row *w, double measured)
{
	json_object *o = json_object_new_object();

	put_str(o, "name", w->pol.name);
	put_str(o, "kind", kind_name(w->pol.kind));
	if (w->pol.kind == EST_THRESHOLD && w->pol.threshold != EST_NEVER)
		json_object_object_add(o, "threshold", json_object_new_uint64(w->pol.threshold));
	else
		json_object_object_add(o, "threshold", NULL);
	put_num(o, "total_ns", w->total_ns);
	put_num(o, "ns_per_call", w->ns_per_call);
	put_num(o, "delta_ns", w->delta_ns);
	put_num(o, "delta_pct", w->delta_pct);
	put_num(o, "ci_low", w->ci_low);
	put_num(o, "ci_high", w->ci_high);
	put_num(o, "bound_ns", w->bound_ns);
	if (!isnan(measured)) {
		put_num(o, "measured_pct", measured);
		put_num(o, "error_pct", w->delta_pct - measured);
	}
	return o;
}

static json_object *sites_to_json(const struct est_family_result *fr)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < fr->nr_sites; i++) {
		const struct est_site_row *s = &fr->sites[i];
		json_object *o = json_object_new_object();

		put_str(o, "site", s->site->label);
		if (fr->samples > 0)
			json_object_object_add(o, "calls",
					       json_object_new_int64(llround(s->calls)));
		else
			put_num(o, "calls", s->calls);
		put_num(o, "today_ns", s->today_ns);
		put_num(o, "at_ns", s->at_ns);
		put_num(o, "delta_pct",
			s->today_ns > 0 ? 100 * (s->at_ns - s->today_ns) / s->today_ns : 0);
		json_object_array_add(a, o);
	}
	return a;
}

/* A number the model may lack (NAN: a cache state without a curve) as null. */
static void put_num_or_null(json_object *o, const char *key, double v)
{
	if (isfinite(v))
		put_num(o, key, v);
	else
		json_object_object_add(o, key, NULL);
}

static json_object *mix_sample_to_json(const struct est_mix_sample *q)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "lo", json_object_new_uint64(q->lo));
	json_object_object_add(o, "hi", json_object_new_uint64(q->hi));
	put_num(o, "shuffled_ns", q->shuffled_ns);
	put_num(o, "sorted_ns", q->sorted_ns);
	put_num_or_null(o, "predicted_ns", q->predicted_ns);
	put_num(o, "penalty_ns", q->penalty_ns);
	return o;
}

static json_object *mix_impl_to_json(const struct est_mix *mix, const struct est_mix_impl *e)
{
	static const char *const spans[] = { "below", "from", "all" };
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	json_object *q = json_object_new_array();
	size_t k;

	put_str(o, "impl", e->impl);
	put_num(o, "shuffled_ns", e->shuffled_ns);
	put_num(o, "sorted_ns", e->sorted_ns);
	put_num_or_null(o, "predicted_ns", e->predicted_ns);
	put_num(o, "penalty_ns", e->penalty_ns);
	put_str(o, "span", spans[e->span]);
	for (k = 0; k < mix->classes.nr; k++)
		json_object_array_add(a, num(e->class_penalty_ns[k]));
	json_object_object_add(o, "class_penalty_ns", a);
	for (k = 0; k < e->nr_samples; k++)
		json_object_array_add(q, mix_sample_to_json(&e->samples[k]));
	json_object_object_add(o, "samples", q);
	return o;
}

/* The split penalty at each inner class edge, with the policy's own sample. */
static json_object *split_to_json(const struct est_mix *mix)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t k;

	put_str(o, "impl", mix->split.impl);
	for (k = 1; k < mix->classes.nr; k++) {
		json_object *e = mix_sample_to_json(&mix->split.samples[k]);

		json_object_object_add(e, "t", json_object_new_uint64(mix->split.samples[k].t));
		put_num(e, "split_ns", mix->split.penalty_ns[k]);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "thresholds", a);
	return o;
}

/* A correction's head: applied and why not, or its replay's calls, runs and CPU. */
static json_object *correction_head(bool applied, const char *why, size_t calls, int runs, int cpu)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "applied", json_object_new_boolean(applied));
	if (!applied) {
		put_str(o, "why", why[0] ? why : "not run");
		return o;
	}
	json_object_object_add(o, "calls", json_object_new_uint64(calls));
	json_object_object_add(o, "runs", json_object_new_int(runs));
	json_object_object_add(o, "cpu", json_object_new_int(cpu));
	return o;
}

static json_object *mix_to_json(const struct est_mix *mix)
{
	json_object *o = correction_head(mix->applied, mix->why, mix->calls, mix->runs, mix->cpu);
	json_object *a, *c;
	size_t i;

	if (!mix->applied)
		return o;
	json_object_object_add(o, "cutoff", json_object_new_uint64(mix->cutoff));
	c = json_object_new_array();
	for (i = 0; i < mix->classes.nr; i++) {
		json_object *k = json_object_new_object();

		json_object_object_add(k, "lo", json_object_new_uint64(mix->classes.edges[i]));
		json_object_object_add(k, "hi", json_object_new_uint64(mix->classes.edges[i + 1]));
		put_num(k, "calls", mix->classes.calls[i]);
		json_object_array_add(c, k);
	}
	json_object_object_add(o, "classes", c);
	a = json_object_new_array();
	for (i = 0; i < mix->nr_impls; i++)
		json_object_array_add(a, mix_impl_to_json(mix, &mix->impls[i]));
	json_object_object_add(o, "impls", a);
	json_object_object_add(o, "split", split_to_json(mix));
	return o;
}

/* --validate's verdict on the best threshold (docs/estimate.md#--validate). */
static void validation_best_to_json(const struct est_family_result *fr, json_object *v)
{
	double gap;
	bool same;
	int best = est_validation_best(fr, &gap, &same);

	if (best < 0)
		return;
	put_str(v, "best_predicted", fr->rows[fr->best].pol.name);
	put_str(v, "best_measured", fr->rows[best].pol.name);
	put_num(v, "best_gap_pct", gap);
	json_object_object_add(v, "best_same", json_object_new_boolean(same));
}

static json_object *neighbour_to_json(const struct est_family_result *fr)
{
	const struct est_neighbour *nb = &fr->nb;
	json_object *o = correction_head(nb->applied, nb->why, nb->calls, nb->runs, nb->cpu), *a;
	size_t i;

	if (!nb->applied)
		return o;
	put_num(o, "speed", nb->speed);
	a = json_object_new_array();
	for (i = 0; i < nb->nr_rows; i++) {
		json_object *p = json_object_new_object();

		if (!isfinite(nb->residual_ns[i]))
			continue;
		put_str(p, "name", fr->rows[i].pol.name);
		put_num(p, "shuffled_ns", nb->shuffled_ns[i]);
		put_num(p, "sorted_ns", nb->sorted_ns[i]);
		put_num(p, "order_ns", nb->order_ns[i]);
		put_num(p, "residual_ns", nb->residual_ns[i]);
		json_object_array_add(a, p);
	}
	json_object_object_add(o, "policies", a);
	return o;
}

/* The verdict (docs/estimate.md#the-verdict): the same sentence as the text's. */
static json_object *verdict_to_json(const struct est_family_result *fr)
{
	json_object *v = json_object_new_object();
	enum est_verdict_kind k = est_verdict(fr);
	char text[192];
	size_t i;

	est_verdict_text(fr, text, sizeof(text));
	put_str(v, "kind", est_verdict_name(k));
	put_str(v, "text", text);
	put_str(v, "policy", k == EST_VERDICT_SAVES ? fr->rows[fr->best].pol.name : NULL);
	if (k == EST_VERDICT_SAVES) {
		put_num(v, "saving_pct", -fr->rows[fr->best].delta_pct);
		put_num(v, "saving_ci_low", -fr->rows[fr->best].ci_high);
		put_num(v, "saving_ci_high", -fr->rows[fr->best].ci_low);
	}
	for (i = 0; i < fr->nr_rows; i++)
		if (fr->rows[i].pol.kind == EST_THRESHOLD && fr->rows[i].pol.threshold == 0 &&
		    fr->nr_rows > 1)
			put_num(v, "dispatch_cost_pct",
				fr->rows[i].delta_pct - fr->rows[1].delta_pct);
	return v;
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
	json_object_object_add(o, "today", today);
	if (fr->samples > 0) {
		/* Inferred from samples: a whole number, and said to be inferred. */
		json_object_object_add(o, "calls", json_object_new_int64(llround(fr->calls)));
		json_object_object_add(o, "calls_inferred", json_object_new_boolean(true));
		json_object_object_add(o, "samples", json_object_new_int64(llround(fr->samples)));
	} else {
		put_num(o, "calls", fr->calls);
	}
	if (fr->share >= 0)
		put_num(o, "share", fr->share);
	json_object_object_add(o, "dispatch_measured",
			       json_object_new_boolean(fr->dispatch_measured));
	put_num(o, "dispatch_lo_ns", fr->dispatch_lo_ns);
	put_num(o, "dispatch_hi_ns", fr->dispatch_hi_ns);
	{
		char d[24];

		est_corr_digest_str(fr->mix_digest, d, sizeof(d));
		put_str(o, "mix_digest", d);
	}
	json_object_object_add(o, "mix_correction", mix_to_json(&fr->mix));
	json_object_object_add(o, "neighbour_correction", neighbour_to_json(fr));
	for (i = 0; i < fr->nr_rows; i++)
		json_object_array_add(
			rows,
			row_to_json(&fr->rows[i], fr->measured_pct ? fr->measured_pct[i] : NAN));
	json_object_object_add(o, "policies", rows);
	if (fr->best < 0)
		return o;
	json_object_object_add(o, "verdict", verdict_to_json(fr));
	json_object_object_add(o, "best", row_to_json(&fr->rows[fr->best], NAN));
	if (fr->measured_pct) {
		json_object *v = json_object_new_object();

		json_object_object_add(v, "calls", json_object_new_uint64(fr->replay_calls));
		json_object_object_add(v, "runs", json_object_new_int(fr->replay_runs));
		json_object_object_add(v, "cpu", json_object_new_int(fr->replay_cpu));
		put_num_or_null(v, "noise_floor_pct", fr->noise_floor_pct);
		validation_best_to_json(fr, v);
		json_object_object_add(o, "validation", v);
	}
	json_object_object_add(
		flat, "lo", fr->flat_lo == EST_NEVER ? NULL : json_object_new_uint64(fr->flat_lo));
	json_object_object_add(
		flat, "hi", fr->flat_hi == EST_NEVER ? NULL : json_object_new_uint64(fr->flat_hi));
	json_object_object_add(o, "within_1pct", flat);
	put_str(o, "at", fr->rows[fr->at].pol.name);
	json_object_object_add(o, "sites", sites_to_json(fr));
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
