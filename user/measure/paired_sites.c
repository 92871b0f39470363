// SPDX-License-Identifier: GPL-2.0
/* paired_sites.c: calibrate --mix: the hottest sites' own mixes, each measured paired */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "costmodel/costmodel_paired.h"
#include "estimate/estimate_digest.h"
#include "estimate/estimate_model.h"
#include "lib/log.h"
#include "paired_sites.h"

/* The chosen sites' rows of @fr, hottest first, into @pick; how many. */
static size_t choose(const struct est_family_result *fr, size_t *pick, size_t *below)
{
	double total = 0;
	size_t i, j, n = 0;

	*below = 0;
	for (i = 0; i < fr->nr_sites; i++)
		total += fr->sites[i].today_ns;
	for (i = 0; i < fr->nr_sites; i++) {
		if (!(total > 0) || fr->sites[i].today_ns < PAIRED_SITE_SHARE * total) {
			(*below)++;
			continue;
		}
		/* insertion by today's time, descending; ties by row order (deterministic) */
		for (j = n; j > 0 && fr->sites[pick[j - 1]].today_ns < fr->sites[i].today_ns; j--)
			pick[j] = pick[j - 1];
		pick[j] = i;
		n++;
	}
	return n;
}

static int measure_one(struct est_run *run, const struct est_input *in,
		       const struct est_family_result *fr, const struct est_site *site,
		       const struct paired_opts *po, const char *what)
{
	struct est_input one = *in;
	struct est_family_result sfr;
	double dst[64], src[64], *dist = malloc(CP_NBUCKETS * CP_NR_DIST * sizeof(*dist));
	char control[160];
	struct mixmeas mm;
	bool aligned, far;
	int err;

	if (!dist)
		return -ENOMEM;

	one.sites = (struct est_site *)site;
	one.nr_sites = 1;
	err = est_family_evaluate(&one, fr->family, run->models[0], run->model_names[0],
				  &run->opts.o, &sfr);
	if (err) {
		est_family_result_free(&sfr);
		free(dist);
		return err;
	}
	aligned = est_family_alignments(&one, fr->family, dst, src);
	far = est_family_distances(&one, fr->family, dist);
	err = paired_measure(&sfr, aligned ? dst : NULL, aligned ? src : NULL, far ? dist : NULL,
			     po, &mm);
	free(dist);
	if (!err)
		mm.calls_note = paired_calls_note(&sfr, &run->opts.o);
	est_family_result_free(&sfr);
	if (err)
		return err;
	mm.digest = strdup(fr->digest);
	mm.site = strdup(site->label);
	mm.input = strdup(what);
	mm.weight = strdup(fr->samples > 0 ? "time" : "calls");
	if (!mm.digest || !mm.site || !mm.input || !mm.weight) {
		mixmeas_free(&mm);
		return -ENOMEM;
	}
	p_info("calibrate --mix: site %s: %llu rounds in %.0f s (%llu on a quiet core), %s",
	       site->label, (unsigned long long)mm.rounds, mm.time_s,
	       (unsigned long long)mm.quiet_rounds,
	       paired_control_text(&mm, control, sizeof(control)));
	err = costmodel_store_paired(run->models[0], &mm);
	mixmeas_free(&mm);
	return err < 0 ? err : 0;
}

int paired_measure_sites(struct est_run *run, const struct est_input *in,
			 const struct est_family_result *fr, const struct paired_opts *po,
			 double sites_budget_s, const char *what)
{
	const char *fam = est_family(fr->family)->name;
	size_t pick[PAIRED_MAX_SITES + 1], *all, n, fit, below, i;
	struct paired_opts so = *po;
	int err = 0;

	if (fr->nr_sites < 2)
		return 0; /* one site: its mix is the whole one, measured above */
	all = calloc(fr->nr_sites, sizeof(*all));
	if (!all)
		return -ENOMEM;
	n = choose(fr, all, &below);
	fit = sites_budget_s > 0 ? (size_t)(sites_budget_s / PAIRED_SITE_MIN_S) : 0;
	if (fit > PAIRED_MAX_SITES)
		fit = PAIRED_MAX_SITES;
	if (fit > n)
		fit = n;
	memcpy(pick, all, fit * sizeof(*pick));
	p_info("calibrate --mix: %s: %zu of %zu sites carry %.0f%% or more of the modelled copy "
	       "time; measuring %zu of them, %.1f s each (--mix-site-budget %.0f s); the "
	       "rest are shown as not measured",
	       fam, n, fr->nr_sites, 100 * PAIRED_SITE_SHARE, fit,
	       fit ? sites_budget_s / (double)fit : 0.0, sites_budget_s);
	for (i = fit; i < n; i++) {
		if (i >= PAIRED_MAX_SITES)
			p_info("calibrate --mix: %s: site %s skipped: beyond the hottest %d", fam,
			       fr->sites[all[i]].site->label, PAIRED_MAX_SITES);
		else
			p_info("calibrate --mix: %s: site %s skipped: no budget left (raise "
			       "--mix-site-budget)",
			       fam, fr->sites[all[i]].site->label);
	}
	free(all);
	so.budget_s = fit ? sites_budget_s / (double)fit : 0;
	for (i = 0; i < fit && !err; i++) {
		err = measure_one(run, in, fr, fr->sites[pick[i]].site, &so, what);
		if (err == -EDOM) {
			p_warn("calibrate --mix: site %s: its measurement was refused; it stays "
			       "not measured",
			       fr->sites[pick[i]].site->label);
			err = 0;
		}
	}
	return err;
}
