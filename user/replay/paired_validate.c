// SPDX-License-Identifier: GPL-2.0
/* paired_validate.c: estimate --validate: an independent paired replay against the estimate */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "estimate/estimate_digest.h"
#include "lib/log.h"
#include "paired_validate.h"

int paired_validate_family(const struct est_input *in, struct est_family_result *fr,
			   const struct paired_opts *po, struct mixmeas *out)
{
	struct paired_opts o = *po;
	double dst[64], src[64];
	bool aligned = est_family_alignments(in, fr->family, dst, src);
	size_t i;
	int err;

	o.seed = PAIRED_VALIDATE_SEED;
	if (fr->meas && isfinite(fr->meas->budget_s) && fr->meas->budget_s > 0)
		o.budget_s = fr->meas->budget_s;
	p_info("validate: replaying %s's mix under %zu policies, paired, for %.0f s or more",
	       est_family(fr->family)->name, est_family_timed_policies(fr), o.budget_s);
	err = paired_measure(fr, aligned ? dst : NULL, aligned ? src : NULL, &o, out);
	if (err)
		return err;
	fr->validate_pct = malloc(fr->nr_rows * sizeof(double));
	fr->validate_lo = malloc(fr->nr_rows * sizeof(double));
	fr->validate_hi = malloc(fr->nr_rows * sizeof(double));
	if (!fr->validate_pct || !fr->validate_lo || !fr->validate_hi) {
		mixmeas_free(out);
		return -ENOMEM;
	}
	for (i = 0; i < fr->nr_rows; i++) {
		const struct mixmeas_row *r = mixmeas_row_find(out, fr->rows[i].pol.name);

		fr->validate_pct[i] = r ? r->quiet.delta_pct : NAN;
		fr->validate_lo[i] = r ? r->quiet.ci_low : NAN;
		fr->validate_hi[i] = r ? r->quiet.ci_high : NAN;
	}
	fr->noise_floor_pct = fmax(fabs(out->control.delta_pct),
				   (out->control.ci_high - out->control.ci_low) / 2);
	fr->validation = out;
	return 0;
}
