// SPDX-License-Identifier: GPL-2.0
/* cmd_diff_print.c: `copyprof diff`'s output: context, families, sites, buckets; text or JSON */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cmd_diff_print.h"
#include "lib/count_sum.h"
#include "lib/hist.h"
#include "lib/jsonw.h"

/* ---- text ---- */

static void pct(char *buf, size_t len, double x, double y)
{
	if (x > 0)
		snprintf(buf, len, "%+.2f%%", 100 * (y / x - 1));
	else
		snprintf(buf, len, "%s", y > 0 ? "new" : "+0.00%");
}

static void bucket_name(char *buf, size_t len, uint32_t b)
{
	uint64_t lo = hist_bucket_lo(b), hi = hist_bucket_hi(b);

	if (hi == lo + 1)
		snprintf(buf, len, "%llu B", (unsigned long long)lo);
	else if (hi == UINT64_MAX)
		snprintf(buf, len, ">= %llu B", (unsigned long long)lo);
	else
		snprintf(buf, len, "%llu-%llu B", (unsigned long long)lo,
			 (unsigned long long)hi - 1);
}

static bool within_noise(const struct diff_row *r)
{
	return !r->sig_calls && !r->sig_share && !r->sig_bucket;
}

static const char *verdict(double p, double alpha)
{
	return p < alpha ? "significant" : "within noise";
}

static void print_model(FILE *f, const struct diff_row *r, const char *unit)
{
	const struct diff_model *m = &r->model;

	if (!m->known)
		return;
	fprintf(f,
		"    modelled  %.4g -> %.4g ms%s (%+.4g ms: lengths %+.4g ms, code %+.4g ms)  "
		"code %s -> %s  share of time %.1f%% -> %.1f%%\n",
		m->ns[0] / 1e6, m->ns[1] / 1e6, unit, (m->ns[1] - m->ns[0]) / 1e6,
		(m->ns_mixed - m->ns[0]) / 1e6, (m->ns[1] - m->ns_mixed) / 1e6,
		m->code[0][0] ? m->code[0] : "-", m->code[1][0] ? m->code[1] : "-",
		100 * m->share[0], 100 * m->share[1]);
}

static void print_row(FILE *f, const struct profile_diff *d, const struct diff_row *r,
		      const struct diff_print_opts *o, const char *share_of)
{
	const char *unit = d->per_second ? "/s" : "";
	const char *what = r->sampled ? "samples" : "calls";
	char c[32], b[32];
	size_t i, shown = 0;

	pct(c, sizeof(c), r->s[0].rate, r->s[1].rate);
	if (r->match)
		fprintf(f, "  %s  [%s]\n", r->name, profile_match_kind_name(r->match->kind));
	else
		fprintf(f, "  %s\n", r->name);
	fprintf(f,
		"    %-8s  %.6g -> %.6g%s (%s, p=%.2g, %s)  mean %.1f -> %.1f B  "
		"share of %s %.2f%% -> %.2f%% (p=%.2g, %s)\n",
		what, r->s[0].rate, r->s[1].rate, unit, c, r->p_calls,
		verdict(r->p_calls, d->alpha), r->s[0].mean, r->s[1].mean, share_of,
		100 * r->s[0].share, 100 * r->s[1].share, r->p_share,
		verdict(r->p_share, d->alpha));
	if (r->s[0].scaled || r->s[1].scaled)
		fprintf(f,
			"    scaled: multiplexed counts are estimates (raw x enabled/running); "
			"tested on the raw counts over the time counted (raw/scaled %.3g -> "
			"%.3g)\n",
			r->s[0].raw_frac > 0 ? r->s[0].raw_frac : 1,
			r->s[1].raw_frac > 0 ? r->s[1].raw_frac : 1);
	print_model(f, r, unit);
	for (i = 0; i < r->nr_buckets; i++) {
		const struct diff_bucket *x = &r->buckets[i];

		if (!o->all && !x->sig_count && !x->sig_share)
			continue;
		bucket_name(b, sizeof(b), x->b);
		fprintf(f,
			"    %-18s %.6g -> %.6g%s (%+.6g; p=%.2g)  share %.2f%% -> %.2f%% "
			"(%+.2f points; p=%.2g)%s\n",
			b, x->rate[0], x->rate[1], unit, x->rate[1] - x->rate[0], x->p_count,
			100 * x->share[0], 100 * x->share[1], 100 * (x->share[1] - x->share[0]),
			x->p_share, x->sig_count || x->sig_share ? "" : "  within noise");
		shown++;
	}
	if (shown < r->nr_buckets)
		fprintf(f, "    %zu other bucket(s) within noise\n", r->nr_buckets - shown);
}

static void print_context(FILE *f, const struct profile_diff *d)
{
	size_t i, same = 0;

	fprintf(f, "context (what the workload ran on; changes first):\n");
	for (i = 0; i < d->nr_changes; i++) {
		const struct diff_change *c = &d->changes[i];

		if (!c->changed) {
			same++;
			continue;
		}
		fprintf(f, "  ! %-18s %s -> %s\n", c->what, c->before ?: "(unknown)",
			c->after ?: "(unknown)");
	}
	if (!same)
		return;
	fprintf(f, "  same:");
	for (i = 0; i < d->nr_changes; i++)
		if (!d->changes[i].changed)
			fprintf(f, " %s (%s)%s", d->changes[i].what,
				d->changes[i].before ?: "unknown", --same ? ";" : "");
	fputc('\n', f);
}

void diff_print_text(FILE *f, const struct profile_diff *d, const struct diff_print_opts *o)
{
	size_t i, quiet = 0, n;
	int k;

	fprintf(f, "diff: BEFORE %s -> AFTER %s\n", o->names[0], o->names[1]);
	if (o->no_change) {
		fprintf(f,
			"no change: the two profiles hold the same sites, counts and context\n"
			"  compared as %s: %s\n",
			d->per_second ? "rates per second" : "totals per recording", d->norm_why);
		return;
	}
	if (d->mixed)
		fprintf(f,
			"mixed: counted sites (calls) compared with counted ones, sampled sites "
			"(samples) with sampled ones, each family per kind; as %s; a change is "
			"significant at p < %g\n",
			d->per_second ? "rates per second of recording" : "totals per recording",
			d->alpha);
	else
		fprintf(f, "%s, %s compared as %s; a change is significant at p < %g\n",
			d->sampled ? "sampled" : "counted", d->sampled ? "samples" : "calls",
			d->per_second ? "rates per second of recording" : "totals per recording",
			d->alpha);
	fprintf(f, "  compared as %s: %s\n",
		d->per_second ? "rates per second" : "totals per recording", d->norm_why);
	for (k = 0; k < 2; k++)
		fprintf(f, "  %s: %.3f s recorded%s%s%s%s\n", k ? "AFTER " : "BEFORE",
			d->p[k]->meta.duration_s, d->p[k]->meta.command ? ", '" : "",
			d->p[k]->meta.command ?: "", d->p[k]->meta.command ? "'" : "",
			d->p[k]->meta.ended_by && strcmp(d->p[k]->meta.ended_by, "command")
				? d->p[k]->meta.ended_by[0] == 's' ? " (stopped by a signal)"
								   : " (stopped after -d)"
				: "");
	if (o->model)
		fprintf(f,
			"modelled copy time from %s (%s; estimate's pure model): change = "
			"lengths (AFTER's lengths on BEFORE's code) + code (AFTER's code)\n",
			o->model, o->cache);
	fputc('\n', f);
	print_context(f, d);
	fprintf(f, "\nfamilies (largest change first):\n");
	for (i = 0; i < d->nr_families; i++)
		print_row(f, d, &d->families[i], o,
			  d->families[i].sampled ? "CPU time"
			  : d->mixed		 ? "all counted copy calls"
						 : "all copy calls");
	fprintf(f, "\nsites (largest change first; matched by target, symbol, offset and label, "
		   "or by symbol when the offset moved):\n");
	for (i = 0; i < d->nr_sites; i++) {
		const struct diff_row *r = &d->sites[i];

		if (r->match->kind >= MATCH_VANISHED)
			continue;
		if (!o->all && within_noise(r) &&
		    !(r->model.known && r->model.ns[0] != r->model.ns[1])) {
			quiet++;
			continue;
		}
		print_row(f, d, r, o, r->sampled ? "CPU time" : r->family);
	}
	if (quiet)
		fprintf(f, "  %zu other matched site(s) within noise (--all shows them)\n", quiet);
	for (k = 0; k < 2; k++) {
		enum profile_match_kind want = k ? MATCH_APPEARED : MATCH_VANISHED;

		for (i = 0, n = 0; i < d->nr_sites; i++)
			n += d->sites[i].match->kind == want;
		if (!n)
			continue;
		fprintf(f, "\n%s (%s only):\n", k ? "appeared" : "vanished",
			k ? "AFTER" : "BEFORE");
		for (i = 0; i < d->nr_sites; i++) {
			const struct diff_row *r = &d->sites[i];

			if (r->match->kind == want)
				fprintf(f, "  %s  %.6g %s%s, mean %.1f B\n", r->name, r->s[k].rate,
					r->sampled ? "samples" : "calls", d->per_second ? "/s" : "",
					r->s[k].mean);
		}
	}
}

/* ---- JSON ---- */

static json_object *num(double x)
{
	return json_object_new_double(isfinite(x) ? x : 0);
}

/* A sum of counts: whole ones written whole, past 2^64 too (lib/count_sum.h); scaled ones not. */
static json_object *count(double x)
{
	if (isfinite(x) && x >= 0 && x == nearbyint(x))
		return count_sum_json(count_sum_from_double(x));
	return num(x);
}

static json_object *side_json(const struct diff_side *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "calls", count(s->calls));
	json_object_object_add(o, "known", count(s->known));
	json_object_object_add(o, "bytes", count(s->bytes));
	json_object_object_add(o, "rate", num(s->rate));
	json_object_object_add(o, "mean", num(s->mean));
	json_object_object_add(o, "share", num(s->share));
	return o;
}

static json_object *model_json(const struct diff_model *m)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "ns_before", num(m->ns[0]));
	json_object_object_add(o, "ns_after", num(m->ns[1]));
	json_object_object_add(o, "ns_mixed", num(m->ns_mixed));
	json_object_object_add(o, "change_ns", num(m->ns[1] - m->ns[0]));
	json_object_object_add(o, "lengths_ns", num(m->ns_mixed - m->ns[0]));
	json_object_object_add(o, "code_ns", num(m->ns[1] - m->ns_mixed));
	jsonw_put_str(o, "code_before", m->code[0][0] ? m->code[0] : NULL);
	jsonw_put_str(o, "code_after", m->code[1][0] ? m->code[1] : NULL);
	json_object_object_add(o, "share_before", num(m->share[0]));
	json_object_object_add(o, "share_after", num(m->share[1]));
	return o;
}

static json_object *bucket_json(const struct diff_bucket *x)
{
	json_object *o = json_object_new_object();
	uint64_t hi = hist_bucket_hi(x->b);

	json_object_object_add(o, "lo", json_object_new_uint64(hist_bucket_lo(x->b)));
	json_object_object_add(o, "hi", json_object_new_uint64(hi));
	json_object_object_add(o, "count_before", count(x->n[0]));
	json_object_object_add(o, "count_after", count(x->n[1]));
	json_object_object_add(o, "count_change", num(x->n[1] - x->n[0]));
	json_object_object_add(o, "bytes_before", count(x->bytes[0]));
	json_object_object_add(o, "bytes_after", count(x->bytes[1]));
	json_object_object_add(o, "rate_before", num(x->rate[0]));
	json_object_object_add(o, "rate_after", num(x->rate[1]));
	json_object_object_add(o, "share_before", num(x->share[0]));
	json_object_object_add(o, "share_after", num(x->share[1]));
	json_object_object_add(o, "share_change", num(x->share[1] - x->share[0]));
	json_object_object_add(o, "p_count", num(x->p_count));
	json_object_object_add(o, "p_share", num(x->p_share));
	json_object_object_add(o, "significant",
			       json_object_new_boolean(x->sig_count || x->sig_share));
	return o;
}

static json_object *row_json(const struct diff_row *r)
{
	json_object *o = json_object_new_object(), *ch = json_object_new_object();
	json_object *b = json_object_new_array();
	size_t i;

	jsonw_put_str(o, "name", r->name);
	jsonw_put_str(o, "family", r->family);
	jsonw_put_str(o, "kind", r->sampled ? "sampled" : "counted");
	json_object_object_add(o, "scaled",
			       json_object_new_boolean(r->s[0].scaled || r->s[1].scaled));
	if (r->match) {
		jsonw_put_str(o, "match", profile_match_kind_name(r->match->kind));
		jsonw_put_str(o, "target", r->match->target);
		jsonw_put_str(o, "symbol", r->match->symbol);
		jsonw_put_str(o, "label", r->match->label);
		jsonw_put_str(o, "leaf", r->match->leaf);
		json_object_object_add(o, "offset_before",
				       r->match->nr[0] ? json_object_new_uint64(r->match->offset[0])
						       : NULL);
		json_object_object_add(o, "offset_after",
				       r->match->nr[1] ? json_object_new_uint64(r->match->offset[1])
						       : NULL);
	}
	json_object_object_add(o, "before", side_json(&r->s[0]));
	json_object_object_add(o, "after", side_json(&r->s[1]));
	json_object_object_add(ch, "calls", num(r->s[1].calls - r->s[0].calls));
	json_object_object_add(ch, "rate", num(r->s[1].rate - r->s[0].rate));
	json_object_object_add(ch, "p_calls", num(r->p_calls));
	json_object_object_add(ch, "significant_calls", json_object_new_boolean(r->sig_calls));
	json_object_object_add(ch, "share", num(r->s[1].share - r->s[0].share));
	json_object_object_add(ch, "p_share", num(r->p_share));
	json_object_object_add(ch, "significant_share", json_object_new_boolean(r->sig_share));
	json_object_object_add(ch, "within_noise", json_object_new_boolean(within_noise(r)));
	json_object_object_add(o, "change", ch);
	json_object_object_add(o, "model", r->model.known ? model_json(&r->model) : NULL);
	for (i = 0; i < r->nr_buckets; i++)
		json_object_array_add(b, bucket_json(&r->buckets[i]));
	json_object_object_add(o, "buckets", b);
	return o;
}

static json_object *input_json(const struct profile_diff *d, int k, const char *name)
{
	const struct profile *p = d->p[k];
	json_object *o = json_object_new_object();

	jsonw_put_str(o, "file", name);
	jsonw_put_str(o, "kernel", p->meta.kernel);
	jsonw_put_str(o, "cpu_model", p->meta.cpu_model);
	jsonw_put_str(o, "command", p->meta.command);
	jsonw_put_str(o, "ended_by", p->meta.ended_by);
	json_object_object_add(o, "duration_s", num(p->meta.duration_s));
	json_object_object_add(o, "exposure", num(d->exposure[k]));
	json_object_object_add(o, "sites", json_object_new_uint64(p->nr_sites));
	return o;
}

json_object *diff_print_json(const struct profile_diff *d, const struct diff_print_opts *o)
{
	json_object *root = json_object_new_object(), *a;
	size_t i;
	int k;

	json_object_object_add(root, "format", json_object_new_string("copyprof-diff"));
	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "before", input_json(d, 0, o->names[0]));
	json_object_object_add(root, "after", input_json(d, 1, o->names[1]));
	json_object_object_add(root, "no_change", json_object_new_boolean(o->no_change));
	jsonw_put_str(root, "kind", d->mixed ? "mixed" : d->sampled ? "sampled" : "counted");
	jsonw_put_str(root, "normalised", d->per_second ? "per_second" : "totals");
	jsonw_put_str(root, "normalised_why", d->norm_why);
	json_object_object_add(root, "alpha", num(d->alpha));
	if (o->model) {
		json_object *m = json_object_new_object();

		jsonw_put_str(m, "file", o->model);
		jsonw_put_str(m, "cache", o->cache);
		json_object_object_add(root, "model", m);
	}
	a = json_object_new_array();
	for (i = 0; i < d->nr_changes; i++) {
		json_object *c = json_object_new_object();

		jsonw_put_str(c, "what", d->changes[i].what);
		jsonw_put_str(c, "before", d->changes[i].before);
		jsonw_put_str(c, "after", d->changes[i].after);
		json_object_object_add(c, "changed",
				       json_object_new_boolean(d->changes[i].changed));
		json_object_array_add(a, c);
	}
	json_object_object_add(root, "context", a);
	a = json_object_new_array();
	for (i = 0; i < d->nr_families; i++)
		json_object_array_add(a, row_json(&d->families[i]));
	json_object_object_add(root, "families", a);
	a = json_object_new_array();
	for (i = 0; i < d->nr_sites; i++)
		json_object_array_add(a, row_json(&d->sites[i]));
	json_object_object_add(root, "sites", a);
	for (k = 0; k < 2; k++) {
		enum profile_match_kind want = k ? MATCH_APPEARED : MATCH_VANISHED;

		a = json_object_new_array();
		for (i = 0; i < d->nr_sites; i++)
			if (d->sites[i].match->kind == want)
				json_object_array_add(a, json_object_new_string(d->sites[i].name));
		json_object_object_add(root, k ? "appeared" : "vanished", a);
	}
	return root;
}
