// SPDX-License-Identifier: GPL-2.0
/* profile_diff.c: two profiles compared: what changed under the workload, and in it */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/count_sum.h"
#include "lib/log.h"
#include "diff_stats.h"
#include "profile_diff.h"
#include "profile_mux.h"

static bool is_sampled(const struct profile_site *s)
{
	return s->sample || (s->mechanism && !strcmp(s->mechanism, "sample"));
}

/* 1: every site sampled, 0: every site counted, -1: both kinds (a merge of both). */
static int sampled_kind(const struct profile *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nr_sites; i++)
		n += is_sampled(&p->sites[i]);
	return !n ? 0 : n == p->nr_sites ? 1 : -1;
}

static double total_calls(const struct profile *p)
{
	double n = 0;
	size_t i;

	for (i = 0; i < p->nr_sites; i++)
		n += (double)p->sites[i].calls;
	return n;
}

int profile_diff_check(const struct profile *a, const char *na, const struct profile *b,
		       const char *nb)
{
	const struct profile *p[2] = { a, b };
	const char *n[2] = { na, nb };
	int k[2], i;

	for (i = 0; i < 2; i++) {
		if (!(total_calls(p[i]) > 0)) {
			p_err("%s (%s) is empty: %zu site(s), no call counted: nothing to compare "
			      "(record the workload again, long enough for its copies to run)",
			      n[i], i ? "AFTER" : "BEFORE", p[i]->nr_sites);
			return -EINVAL;
		}
		k[i] = sampled_kind(p[i]);
	}
	/* A mixed profile (-1) compares each kind with its own; all of one against all of other not. */
	if (k[0] >= 0 && k[1] >= 0 && k[0] != k[1]) {
		p_err("%s is %s and %s is %s: a sampled profile's buckets count samples (time "
		      "spent in copies of each length), a counted one's count calls, so their "
		      "counts, shares and buckets do not compare; only their machines (kernel, "
		      "CPU, dispatch: copyprof report on each) do. Record both the same way (both "
		      "with --sample, or "
		      "both with probes), or compare their modelled time with copyprof estimate "
		      "-m on each",
		      na, k[0] ? "sampled" : "counted", nb, k[1] ? "sampled" : "counted");
		return -EINVAL;
	}
	return 0;
}

/* ---- context ---- */

static struct diff_change *add_change(struct profile_diff *d, const char *what, const char *x,
				      const char *y)
{
	struct diff_change *c = realloc(d->changes, (d->nr_changes + 1) * sizeof(*c));

	if (!c)
		return NULL;
	d->changes = c;
	c = &c[d->nr_changes++];
	c->what = strdup(what);
	c->before = x ? strdup(x) : NULL;
	c->after = y ? strdup(y) : NULL;
	c->changed = strcmp(x ?: "", y ?: "") != 0;
	return c;
}

static void flags_str(const struct host_meta *m, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	if (m->cpu_flags_unknown) {
		snprintf(buf, len, "unknown");
		return;
	}
	for (i = 0; i < m->nr_cpu_flags && n < len; i++) {
		int k = snprintf(buf + n, len - n, "%s%s", i ? " " : "", m->cpu_flags[i]);

		if (k < 0)
			break;
		n += (size_t)k;
	}
}

/*
 * The dispatch of each side: recorded, else derived from the kernel and CPU flags. A side
 * whose flags are unknown (import-perf of another host's data) has no dispatch to compare:
 * nothing is reported as changed against it.
 */
static int dispatch_changes(struct profile_diff *d, struct profile_dispatch *own[2])
{
	char sum[2][256], src[2][300];
	bool unknown[2];
	size_t r;
	int k;

	for (k = 0; k < 2; k++) {
		own[k] = d->p[k]->dispatch ? NULL : profile_dispatch_derive(&d->p[k]->meta);
		unknown[k] = !d->p[k]->dispatch && d->p[k]->meta.cpu_flags_unknown;
	}
	for (r = 0; r < CF_NR_ROUTINES; r++) {
		const struct profile_dispatch_entry *e[2];
		char what[64];

		for (k = 0; k < 2; k++) {
			e[k] = profile_dispatch_find(d->p[k]->dispatch ?: own[k],
						     copy_family_name((enum copy_family)r));
			if (e[k])
				profile_dispatch_summary(e[k], sum[k], sizeof(sum[k]));
			snprintf(src[k], sizeof(src[k]), "%s (%s)", sum[k],
				 e[k] && e[k]->source ? e[k]->source : "?");
			if (unknown[k])
				snprintf(src[k], sizeof(src[k]), "unknown (CPU flags unknown)");
		}
		if (!e[0] && !e[1])
			continue;
		snprintf(what, sizeof(what), "dispatch %s", copy_family_name((enum copy_family)r));
		/* Compared by code; where it was read from is said, not compared. */
		if (!add_change(d, what, e[0] || unknown[0] ? src[0] : NULL,
				e[1] || unknown[1] ? src[1] : NULL))
			return -ENOMEM;
		d->changes[d->nr_changes - 1].changed =
			!unknown[0] && !unknown[1] &&
			(!e[0] || !e[1] || strcmp(sum[0], sum[1]) != 0);
	}
	return 0;
}

static int context(struct profile_diff *d)
{
	const struct host_meta *m[2] = { &d->p[0]->meta, &d->p[1]->meta };
	struct profile_dispatch *own[2] = { NULL, NULL };
	char f[2][256], s[2][64];
	size_t i, nd;
	int err, k;

	err = dispatch_changes(d, own);
	profile_dispatch_free(own[0]);
	profile_dispatch_free(own[1]);
	if (err)
		return err;
	/* The dispatch that changed first, then the rest of the machine. */
	nd = d->nr_changes;
	for (i = 0, k = 0; i < nd; i++)
		if (d->changes[i].changed) {
			struct diff_change t = d->changes[i];

			memmove(&d->changes[k + 1], &d->changes[k], (i - (size_t)k) * sizeof(t));
			d->changes[k++] = t;
		}
	flags_str(m[0], f[0], sizeof(f[0]));
	flags_str(m[1], f[1], sizeof(f[1]));
	if (!add_change(d, "kernel", m[0]->kernel, m[1]->kernel) ||
	    !add_change(d, "cpu_model", m[0]->cpu_model, m[1]->cpu_model) ||
	    !add_change(d, "cpu_flags", f[0], f[1]))
		return -ENOMEM;
	/* Unknown flags are not a change: nothing says they differ. */
	if (m[0]->cpu_flags_unknown || m[1]->cpu_flags_unknown)
		d->changes[d->nr_changes - 1].changed = false;
	if (!add_change(d, "hostname", m[0]->hostname, m[1]->hostname))
		return -ENOMEM;
	if (d->sampled || d->mixed) {
		for (k = 0; k < 2; k++)
			snprintf(s[k], sizeof(s[k]), "%s at %u Hz",
				 d->p[k]->sample && d->p[k]->sample->event ? d->p[k]->sample->event
									   : "?",
				 d->p[k]->sample ? d->p[k]->sample->hz : 0);
		if (!add_change(d, "sampling", s[0], s[1]))
			return -ENOMEM;
	}
	return 0;
}

/* ---- rows ---- */

static double nonidle_samples(const struct profile *p)
{
	double n = 0;
	size_t g;

	if (p->sample && p->sample->total > p->sample->idle)
		return (double)(p->sample->total - p->sample->idle);
	for (g = 0; g < p->nr_groups; g++)
		if (p->groups[g].total_samples > p->groups[g].idle_samples)
			n += (double)(p->groups[g].total_samples - p->groups[g].idle_samples);
	if (n > 0)
		return n;
	for (g = 0; g < p->nr_sites; g++)
		if (is_sampled(&p->sites[g]))
			n += (double)p->sites[g].calls;
	return n;
}

/* Raw / scaled calls of a multiplexed site (its counts are estimates), else 1. */
static double site_raw_frac(const struct profile_site *s)
{
	double f;

	if (!s->mux || !s->calls)
		return 1;
	f = (double)s->mux->raw_calls / (double)s->calls;
	return f > 0 && f < 1 ? f : 1;
}

static double frac(double f)
{
	return f > 0 ? f : 1;
}

static int side_add(struct diff_side *s, const struct profile_site *site)
{
	double f = site_raw_frac(site);
	const struct hist_bucket *e;

	if (site->mux) {
		s->scaled = true;
		if (!s->raw_frac || f < s->raw_frac)
			s->raw_frac = f;
	}
	s->calls += (double)site->calls;
	sparse_hist_for_each (&site->buckets, e) {
		struct hist_bucket *slot = sparse_hist_slot(&s->buckets, e->b);
		bool wc, wb;

		if (!slot)
			return -ENOMEM;
		/* Past 2^64 a bucket keeps its carries beside it: exact (lib/count_sum.h). */
		wc = __builtin_add_overflow(slot->count, e->count, &slot->count);
		wb = __builtin_add_overflow(slot->bytes, e->bytes, &slot->bytes);
		if (sparse_hist_add(&s->carry, e->b, wc, wb))
			return -ENOMEM;
		s->known += (double)e->count;
		s->bytes += (double)e->bytes;
	}
	return 0;
}

/* The next bucket from @b on that either side has calls in, or CP_NBUCKETS. */
static uint32_t next_bucket(const struct diff_row *r, uint32_t b, uint32_t at[2])
{
	uint32_t next = CP_NBUCKETS;
	int k;

	for (k = 0; k < 2; k++) {
		const struct sparse_hist *h = &r->s[k].buckets;

		while (at[k] < h->nr && (h->v[at[k]].b < b || !h->v[at[k]].count))
			at[k]++;
		if (at[k] < h->nr && h->v[at[k]].b < next)
			next = h->v[at[k]].b;
	}
	return next;
}

static int row_buckets(struct profile_diff *d, struct diff_row *r)
{
	double f[2] = { frac(r->s[0].raw_frac), frac(r->s[1].raw_frac) };
	uint32_t b, at[2] = { 0, 0 };
	size_t n = 0;
	int k;

	/* As many as the two sides' buckets have between them, no more (a diff of many sites). */
	for (b = next_bucket(r, 0, at); b < CP_NBUCKETS; b = next_bucket(r, b + 1, at))
		n++;
	r->buckets = calloc(n + 1, sizeof(*r->buckets));
	if (!r->buckets)
		return -ENOMEM;
	at[0] = at[1] = 0;
	for (b = next_bucket(r, 0, at); b < CP_NBUCKETS; b = next_bucket(r, b + 1, at)) {
		struct diff_bucket *x;

		x = &r->buckets[r->nr_buckets++];
		x->b = b;
		for (k = 0; k < 2; k++) {
			struct hist_slot v = sparse_hist_get(&r->s[k].buckets, b);
			struct hist_slot c = sparse_hist_get(&r->s[k].carry, b);

			x->n[k] = (double)(((count_sum)c.count << 64) + v.count);
			x->bytes[k] = (double)(((count_sum)c.bytes << 64) + v.bytes);
			x->rate[k] = x->n[k] / d->exposure[k];
			x->share[k] = r->s[k].known > 0 ? x->n[k] / r->s[k].known : 0;
		}
		x->p_count = diff_stats_rate(x->n[0] * f[0], d->exposure[0] * f[0], x->n[1] * f[1],
					     d->exposure[1] * f[1]);
		x->p_share = diff_stats_prop(x->n[0] * f[0], r->s[0].known * f[0], x->n[1] * f[1],
					     r->s[1].known * f[1]);
		x->sig_count = x->p_count < d->alpha;
		x->sig_share = x->p_share < d->alpha;
		r->sig_bucket |= x->sig_count || x->sig_share;
	}
	return 0;
}

/* Rates, means and tests of a row whose sides are summed and whose share_of is set. */
static int row_finish(struct profile_diff *d, struct diff_row *r)
{
	double f[2] = { frac(r->s[0].raw_frac), frac(r->s[1].raw_frac) };
	double q[2] = { frac(r->s[0].share_frac), frac(r->s[1].share_frac) };
	int k;

	for (k = 0; k < 2; k++) {
		struct diff_side *s = &r->s[k];

		s->rate = s->calls / d->exposure[k];
		s->mean = s->known > 0 ? s->bytes / s->known : 0;
		s->share = s->share_of > 0 ? s->calls / s->share_of : 0;
	}
	/* Scaled counts: tested as the raw counts over the time they were counted (see .h). */
	r->p_calls = diff_stats_rate(r->s[0].calls * f[0], d->exposure[0] * f[0],
				     r->s[1].calls * f[1], d->exposure[1] * f[1]);
	r->p_share = diff_stats_prop(r->s[0].calls * q[0], r->s[0].share_of * q[0],
				     r->s[1].calls * q[1], r->s[1].share_of * q[1]);
	r->sig_calls = r->p_calls < d->alpha;
	r->sig_share = r->p_share < d->alpha;
	return row_buckets(d, r);
}

static const char *family_of(const struct profile_diff_opts *o, const struct profile_site *s)
{
	return o->family_of ? o->family_of(s) : "copy";
}

static struct diff_row *family_row(struct profile_diff *d, const char *fam, bool sampled)
{
	struct diff_row *r;
	size_t i;

	for (i = 0; i < d->nr_families; i++)
		if (!strcmp(d->families[i].family, fam) && d->families[i].sampled == sampled)
			return &d->families[i];
	r = realloc(d->families, (d->nr_families + 1) * sizeof(*r));
	if (!r)
		return NULL;
	d->families = r;
	r = &r[d->nr_families++];
	memset(r, 0, sizeof(*r));
	r->family = fam;
	r->sampled = sampled;
	if (!d->mixed)
		r->name = strdup(fam);
	else if (asprintf(&r->name, "%s (%s)", fam, sampled ? "sampled" : "counted") < 0)
		r->name = NULL;
	return r->name ? r : NULL;
}

static char *site_name(const struct profile_match_row *m)
{
	const char *t = m->target ?: "?", *slash = strrchr(t, '/');
	char *s = NULL, off[48];

	if (m->kind == MATCH_SYMBOL && m->offset[0] != m->offset[1])
		snprintf(off, sizeof(off), "+0x%llx (was +0x%llx)",
			 (unsigned long long)m->offset[1], (unsigned long long)m->offset[0]);
	else
		snprintf(off, sizeof(off), "+0x%llx",
			 (unsigned long long)(m->nr[1] ? m->offset[1] : m->offset[0]));
	if (asprintf(&s, "%s:%s%s%s%s%s%s", slash ? slash + 1 : t, m->symbol ?: "?", off,
		     m->label ? " [" : "", m->label ?: "", m->label ? "]" : "",
		     m->leaf ? "" : "") < 0)
		return NULL;
	if (m->leaf) {
		char *x = NULL;

		if (asprintf(&x, "%s > %s", s, m->leaf) < 0)
			x = NULL;
		free(s);
		s = x;
	}
	return s;
}

static int rows(struct profile_diff *d, const struct profile_diff_opts *o)
{
	double all[2] = { 0, 0 }, all_frac[2] = { 0, 0 };
	size_t i, j;
	int k, err;

	d->sites = calloc(d->nr_match + 1, sizeof(*d->sites));
	if (!d->sites)
		return -ENOMEM;
	d->nr_sites = d->nr_match;
	for (i = 0; i < d->nr_match; i++) {
		struct diff_row *r = &d->sites[i];
		const struct profile_site *first;

		r->match = &d->match[i];
		first = &d->p[r->match->nr[0] ? 0 : 1]
				 ->sites[r->match->sites[r->match->nr[0] ? 0 : 1][0]];
		r->family = family_of(o, first);
		r->sampled = is_sampled(first);
		r->name = site_name(r->match);
		if (!r->name)
			return -ENOMEM;
		for (k = 0; k < 2; k++)
			for (j = 0; j < r->match->nr[k]; j++) {
				const struct profile_site *s =
					&d->p[k]->sites[r->match->sites[k][j]];
				struct diff_row *f = family_row(d, family_of(o, s), r->sampled);

				if (!f || side_add(&r->s[k], s) || side_add(&f->s[k], s))
					return -ENOMEM;
				if (r->sampled)
					continue;
				all[k] += (double)s->calls;
				if (s->mux && (!all_frac[k] || site_raw_frac(s) < all_frac[k]))
					all_frac[k] = site_raw_frac(s);
			}
	}
	/*
	 * Shares of one kind only: a sampled row of the recording's non-idle samples (CPU time),
	 * a counted family of all counted calls, a counted site of its family's counted calls.
	 */
	for (k = 0; k < 2; k++) {
		double samples = nonidle_samples(d->p[k]);

		for (i = 0; i < d->nr_families; i++) {
			struct diff_row *f = &d->families[i];

			f->s[k].share_of = f->sampled ? samples : all[k];
			f->s[k].share_frac = f->sampled ? 0 : all_frac[k];
		}
		for (i = 0; i < d->nr_sites; i++) {
			struct diff_row *r = &d->sites[i];

			if (r->sampled) {
				r->s[k].share_of = samples;
				continue;
			}
			for (j = 0; j < d->nr_families; j++)
				if (!d->families[j].sampled &&
				    !strcmp(d->families[j].family, r->family)) {
					r->s[k].share_of = d->families[j].s[k].calls;
					r->s[k].share_frac = d->families[j].s[k].raw_frac;
				}
		}
	}
	for (i = 0; i < d->nr_families; i++)
		if ((err = row_finish(d, &d->families[i])))
			return err;
	for (i = 0; i < d->nr_sites; i++)
		if ((err = row_finish(d, &d->sites[i])))
			return err;
	return 0;
}

/* The sites of @p of one kind, as a profile sharing @p's data; @idx: their indexes in @p. */
static int kind_view(const struct profile *p, bool sampled, struct profile *v, size_t **idx)
{
	size_t i;

	*v = *p;
	v->nr_sites = 0;
	v->sites = calloc(p->nr_sites + 1, sizeof(*v->sites));
	*idx = calloc(p->nr_sites + 1, sizeof(**idx));
	if (!v->sites || !*idx) {
		free(v->sites);
		free(*idx);
		return -ENOMEM;
	}
	for (i = 0; i < p->nr_sites; i++)
		if (is_sampled(&p->sites[i]) == sampled) {
			(*idx)[v->nr_sites] = i;
			v->sites[v->nr_sites++] = p->sites[i];
		}
	return 0;
}

/* Pairs the sites of one kind (so a sampled site never pairs with a counted one). */
static int match_kind(struct profile_diff *d, bool sampled)
{
	struct profile v[2];
	struct profile_match_row *m = NULL, *all;
	size_t *idx[2] = { NULL, NULL }, n = 0, i, j;
	int err = -ENOMEM, k;

	memset(v, 0, sizeof(v));
	for (k = 0; k < 2; k++)
		if (kind_view(d->p[k], sampled, &v[k], &idx[k]))
			goto out;
	err = profile_match(&v[0], &v[1], &m, &n);
	if (err)
		goto out;
	for (i = 0; i < n; i++)
		for (k = 0; k < 2; k++)
			for (j = 0; j < m[i].nr[k]; j++)
				m[i].sites[k][j] = idx[k][m[i].sites[k][j]];
	all = realloc(d->match, (d->nr_match + n + 1) * sizeof(*all));
	if (!all) {
		profile_match_free(m, n);
		err = -ENOMEM;
		goto out;
	}
	if (n) /* m is NULL when nothing matched */
		memcpy(&all[d->nr_match], m, n * sizeof(*m));
	d->match = all;
	d->nr_match += n;
	free(m);
out:
	for (k = 0; k < 2; k++) {
		free(v[k].sites);
		free(idx[k]);
	}
	return err;
}

/*
 * Whether @p holds a command's whole work: it ran COMMAND and ended when it exited. Profiles
 * without "ended_by" (before issue 24, imports) are taken as such when they name a command.
 */
static bool whole_command(const struct profile *p)
{
	if (p->meta.ended_by)
		return !strcmp(p->meta.ended_by, "command");
	return p->meta.command != NULL;
}

/* How one side ended, for the reason line. */
static const char *ending(const struct profile *p)
{
	if (whole_command(p))
		return "ran a command to its end";
	if (p->meta.ended_by && !strcmp(p->meta.ended_by, "signal"))
		return "was stopped by a signal";
	return "was bounded by time";
}

/* True for rates per second; @why says why (docs/diff.md#normalisation). */
static bool choose_norm(const struct profile *a, const struct profile *b, enum diff_norm norm,
			char *why, size_t len)
{
	bool timed = a->meta.duration_s > 0 && b->meta.duration_s > 0;
	bool cmd[2] = { whole_command(a), whole_command(b) };

	if (norm == DIFF_NORM_TOTALS) {
		snprintf(why, len, "--totals");
		return false;
	}
	if (!timed) {
		snprintf(why, len, "%s%s has no duration, so no rate", norm ? "--rates, but " : "",
			 a->meta.duration_s > 0 ? "AFTER" : "BEFORE");
		return false;
	}
	if (norm == DIFF_NORM_RATES) {
		snprintf(why, len, "--rates");
		return true;
	}
	if (cmd[0] && cmd[1]) {
		snprintf(why, len,
			 "both ran a command to its end: the same work, however long it took; "
			 "--rates compares per second");
		return false;
	}
	if (!cmd[0] && !cmd[1])
		snprintf(why, len, "both were bounded by time; --totals compares totals");
	else
		snprintf(why, len,
			 "BEFORE %s and AFTER %s: a mixed pair, compared per second; "
			 "--totals compares totals",
			 ending(a), ending(b));
	return true;
}

int profile_diff_build(const struct profile *a, const struct profile *b,
		       const struct profile_diff_opts *o, struct profile_diff *d)
{
	int err, k;

	memset(d, 0, sizeof(*d));
	d->p[0] = a;
	d->p[1] = b;
	d->alpha = o->alpha > 0 ? o->alpha : DIFF_ALPHA;
	d->sampled = sampled_kind(a) == 1 && sampled_kind(b) == 1;
	d->mixed = !d->sampled && (sampled_kind(a) < 0 || sampled_kind(b) < 0);
	d->per_second = choose_norm(a, b, o->norm, d->norm_why, sizeof(d->norm_why));
	for (k = 0; k < 2; k++)
		d->exposure[k] = d->per_second ? d->p[k]->meta.duration_s : 1;
	err = context(d);
	if (!err)
		err = match_kind(d, false);
	if (!err)
		err = match_kind(d, true);
	if (!err)
		err = rows(d, o);
	if (!err)
		profile_diff_sort(d);
	if (err)
		profile_diff_free(d);
	return err;
}

/* ---- order, sameness, release ---- */

static double change_of(const struct diff_row *r)
{
	if (r->model.known)
		return fabs(r->model.ns[1] - r->model.ns[0]);
	return fabs(r->s[1].rate - r->s[0].rate);
}

static int cmp_change(const void *x, const void *y)
{
	const struct diff_row *a = x, *b = y;
	double ca = change_of(a), cb = change_of(b);

	if (ca != cb)
		return ca < cb ? 1 : -1;
	ca = fabs(a->s[1].bytes - a->s[0].bytes);
	cb = fabs(b->s[1].bytes - b->s[0].bytes);
	if (ca != cb)
		return ca < cb ? 1 : -1;
	return strcmp(a->name, b->name);
}

void profile_diff_sort(struct profile_diff *d)
{
	qsort(d->sites, d->nr_sites, sizeof(*d->sites), cmp_change);
	qsort(d->families, d->nr_families, sizeof(*d->families), cmp_change);
}

bool profile_diff_none(const struct profile_diff *d)
{
	size_t i, j;

	for (i = 0; i < d->nr_changes; i++)
		if (d->changes[i].changed && strcmp(d->changes[i].what, "hostname"))
			return false;
	/* Per second, equal counts over different times are different rates. */
	if (d->per_second && d->exposure[0] != d->exposure[1])
		return false;
	for (i = 0; i < d->nr_sites; i++) {
		const struct diff_row *r = &d->sites[i];

		if (r->match->kind != MATCH_EXACT || r->s[0].calls != r->s[1].calls)
			return false;
		for (j = 0; j < r->nr_buckets; j++)
			if (r->buckets[j].n[0] != r->buckets[j].n[1] ||
			    r->buckets[j].bytes[0] != r->buckets[j].bytes[1])
				return false;
	}
	return true;
}

static void rows_free(struct diff_row *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(r[i].name);
		free(r[i].buckets);
		sparse_hist_free(&r[i].s[0].buckets);
		sparse_hist_free(&r[i].s[1].buckets);
		sparse_hist_free(&r[i].s[0].carry);
		sparse_hist_free(&r[i].s[1].carry);
	}
	free(r);
}

void profile_diff_free(struct profile_diff *d)
{
	size_t i;

	for (i = 0; i < d->nr_changes; i++) {
		free(d->changes[i].what);
		free(d->changes[i].before);
		free(d->changes[i].after);
	}
	free(d->changes);
	rows_free(d->sites, d->nr_sites);
	rows_free(d->families, d->nr_families);
	profile_match_free(d->match, d->nr_match);
	memset(d, 0, sizeof(*d));
}
