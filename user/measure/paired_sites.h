/* SPDX-License-Identifier: GPL-2.0 */
/* paired_sites.h: calibrate --mix: the hottest sites' own mixes, each measured paired */
#ifndef CP_PAIRED_SITES_H
#define CP_PAIRED_SITES_H

#include "estimate/estimate_run.h"
#include "paired.h"

/*
 * Which sites get a measurement of their own (docs/calibrate.md#per-site-mixes): those whose
 * modelled copy time today is at least PAIRED_SITE_SHARE of their family's, hottest first, at
 * most PAIRED_MAX_SITES of them, each given an equal part of the sites' budget but never less
 * than PAIRED_SITE_MIN_S seconds (fewer sites then, the coolest left out and named). A choice
 * of what to spend the budget on, not a constant of the measurement: a site's figures are made
 * under the same protocol as the whole mix's.
 */
#define PAIRED_SITE_SHARE 0.05
#define PAIRED_MAX_SITES 4
#define PAIRED_SITE_MIN_S 1.0

/*
 * After the whole mix of @fr (family result of input @in, estimated by @run's model): each
 * chosen site's own mix measured (paired_measure() with @po, its budget @sites_budget_s in
 * all), stored in the model under the whole mix's digest and the site's label, so that
 * estimate's per-site rows answer with it. A family of one site measures nothing more (its
 * mix is the whole). A site whose measurement is refused (-EDOM) is said and left unmeasured.
 * Returns 0, -EINTR, or -errno after printing.
 */
int paired_measure_sites(struct est_run *run, const struct est_input *in,
			 const struct est_family_result *fr, const struct paired_opts *po,
			 double sites_budget_s, const char *what);

#endif
