// SPDX-License-Identifier: GPL-2.0
/* estimate_diff.c: modelled copy time of two profiles' rows, and the change split by cause */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sites/copy_paths.h"
#include "estimate_cost.h"
#include "estimate_diff.h"
#include "estimate_family.h"
#include "lib/log.h"

struct diff_costs {
	const struct costmodel *m;
	const char *model_name;
	const struct est_cache *cache;
	struct est_costs c[2][EST_NR_FAMILIES];
	bool resolved[2][EST_NR_FAMILIES];
	bool missing[EST_NR_FAMILIES]; /* the model lacks a curve: that family is not modelled */
	const char *impl[2][EST_NR_FAMILIES];
	struct est_input in[2]; /* the sampling rate, for samples to calls */
};

/*
 * The replica side @k's profile ran for family @f: its recorded dispatch, else the table's;
 * NULL when its CPU flags are unknown.
 */
static const char *code_of(const struct profile *p, enum copy_family f)
{
	const char *name = est_family(f)->name;
	const struct profile_dispatch_entry *e;
	struct dispatch_entry view;
	struct copy_path path;

	e = profile_dispatch_find(p->dispatch, name);
	if (e) {
		profile_dispatch_entry_view(e, &view);
		if (!copy_path_of(name, &view, &path))
			return path.impl;
	}
	if (copy_path_today(name, &p->meta, &path))
		return NULL;
	return path.impl;
}

static struct est_costs *costs_of(struct diff_costs *dc, const struct profile_diff *d, int k,
				  enum copy_family f, int *err)
{
	char why[512];

	*err = 0;
	if (dc->resolved[k][f])
		return &dc->c[k][f];
	if (dc->missing[f])
		return NULL;
	dc->impl[k][f] = code_of(d->p[k], f);
	/* A side whose CPU flags are unknown ran, as far as anyone knows, the other side's code */
	if (!dc->impl[k][f])
		dc->impl[k][f] = code_of(d->p[1 - k], f);
	if (!dc->impl[k][f]) {
		p_warn("%s is not modelled: today's code is unknown on both sides (their CPU flags "
		       "are unknown: import-perf of another host's perf.data; import it on the "
		       "host "
		       "that recorded it)",
		       est_family(f)->name);
		dc->missing[f] = true;
		return NULL;
	}
	*err = est_costs_try(&dc->c[k][f], dc->m, dc->model_name, f, dc->impl[k][f], dc->cache, why,
			     sizeof(why));
	if (*err) {
		est_costs_release(&dc->c[k][f]);
		/* diff compares the profiles; a family the model cannot cost is only not modelled */
		if (*err == -ENOENT) {
			p_warn("%s is not modelled: %s", est_family(f)->name, why);
			dc->missing[f] = true;
			*err = 0;
		}
		return NULL;
	}
	dc->resolved[k][f] = true;
	return &dc->c[k][f];
}

static const struct est_policy today = { .kind = POLICY_TODAY, .name = "today" };

/*
 * Site @s of side @k: its ns on its own code, and (AFTER only) on BEFORE's code. 1: the model
 * cannot cost its family (said once).
 */
static int site_ns(struct diff_costs *dc, const struct profile_diff *d, int k,
		   const struct profile_site *s, struct diff_row *r)
{
	enum copy_family f = est_site_family(s);
	struct est_costs *own, *before = NULL;
	struct est_site one = { .family = f, .time_weighted = s->sample != NULL };
	struct hist_slot buckets[CP_NBUCKETS];
	uint32_t b;
	int err;

	own = costs_of(dc, d, k, f, &err);
	if (own && k)
		before = costs_of(dc, d, 0, f, &err);
	if (!own || (k && !before))
		return err ? err : 1;
	snprintf(r->model.code[k], sizeof(r->model.code[k]), "%s", dc->impl[k][f]);
	sparse_hist_dense(&s->buckets, buckets);
	for (b = 0; b < CP_NBUCKETS; b++) {
		uint64_t lo = hist_bucket_lo(b), hi = hist_bucket_hi(b);
		double n = (double)buckets[b].count, mean, calls, bound;
		bool split;

		if (!buckets[b].count)
			continue;
		mean = (double)buckets[b].bytes / n;
		if (mean < (double)lo)
			mean = (double)lo;
		if (mean > (double)hi - 1)
			mean = (double)hi - 1;
		calls = n * est_calls_per_unit(own, &dc->in[k], &one, mean);
		r->model.ns[k] += calls *
				  est_cost_bucket(own, &today, lo, hi, 1, mean, &bound, &split) /
				  d->exposure[k];
		if (k)
			r->model.ns_mixed +=
				calls *
				est_cost_bucket(before, &today, lo, hi, 1, mean, &bound, &split) /
				d->exposure[k];
	}
	return 0;
}

static void shares(struct profile_diff *d)
{
	double all[2] = { 0, 0 };
	size_t i, j;
	int k;

	for (i = 0; i < d->nr_families; i++)
		for (k = 0; k < 2; k++)
			all[k] += d->families[i].model.ns[k];
	for (i = 0; i < d->nr_families; i++)
		for (k = 0; k < 2; k++)
			d->families[i].model.share[k] =
				all[k] > 0 ? d->families[i].model.ns[k] / all[k] : 0;
	for (i = 0; i < d->nr_sites; i++)
		for (j = 0; j < d->nr_families; j++)
			if (!strcmp(d->sites[i].family, d->families[j].family))
				for (k = 0; k < 2; k++)
					d->sites[i].model.share[k] =
						d->families[j].model.ns[k] > 0
							? d->sites[i].model.ns[k] /
								  d->families[j].model.ns[k]
							: 0;
}

int est_diff_model(struct profile_diff *d, const struct costmodel *m, const char *model_name,
		   const struct est_cache *cache)
{
	struct diff_costs dc = { .m = m, .model_name = model_name, .cache = cache };
	size_t i, j, fi;
	int err = 0, k, f;

	for (k = 0; k < 2; k++)
		dc.in[k].sample_hz = d->p[k]->sample ? d->p[k]->sample->hz : 0;
	for (i = 0; i < d->nr_sites && !err; i++) {
		struct diff_row *r = &d->sites[i];

		int rc = 0;

		for (k = 0; k < 2 && !rc; k++)
			for (j = 0; j < r->match->nr[k] && !rc; j++)
				rc = site_ns(&dc, d, k, &d->p[k]->sites[r->match->sites[k][j]], r);
		err = rc < 0 ? rc : 0;
		r->model.known = !rc;
		if (rc > 0)
			memset(&r->model, 0, sizeof(r->model));
		/* A vanished site costs nothing after, on either code. */
		for (fi = 0; fi < d->nr_families && r->model.known; fi++) {
			struct diff_model *fm = &d->families[fi].model;

			if (strcmp(d->families[fi].family, r->family))
				continue;
			fm->known = true;
			fm->ns[0] += r->model.ns[0];
			fm->ns[1] += r->model.ns[1];
			fm->ns_mixed += r->model.ns_mixed;
			for (k = 0; k < 2; k++)
				if (r->model.code[k][0])
					memcpy(fm->code[k], r->model.code[k], sizeof(fm->code[k]));
		}
	}
	for (k = 0; k < 2; k++)
		for (f = 0; f < EST_NR_FAMILIES; f++)
			if (dc.resolved[k][f])
				est_costs_release(&dc.c[k][f]);
	if (err)
		return err;
	shares(d);
	profile_diff_sort(d);
	return 0;
}
