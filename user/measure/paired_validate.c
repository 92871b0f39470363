// SPDX-License-Identifier: GPL-2.0
/* paired_validate.c: estimate --validate: an independent paired replay against the estimate */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "estimate/estimate_digest.h"
#include "lib/log.h"
#include "measure_retry.h"
#include "paired_validate.h"

/* Today's time per call in @m against @ref's, in percent; NAN if either lacks it. */
static double state_gap_pct(const struct mixmeas *ref, const struct mixmeas *m)
{
	static const struct policy_key today = { POLICY_TODAY, 0 };
	const struct mixmeas_row *a = ref ? mixmeas_row_find(ref, &today) : NULL;
	const struct mixmeas_row *b = mixmeas_row_find(m, &today);

	if (!a || !b || !(a->ns_per_call > 0) || !(b->ns_per_call > 0))
		return NAN;
	return 100 * (b->ns_per_call / a->ns_per_call - 1);
}

/* The replay as the retry rule (measure_retry.h) takes it: the nearest state kept. */
struct validate_attempt {
	struct est_family_result *fr;
	const double *dst, *src, *dist;
	struct paired_opts *o;
	struct mixmeas *out; /* the replay nearest the stored state so far */
	double gap, best;    /* the last replay's state gap, and the kept one's (percent) */
};

/* Replay @attempt, each with a seed of its own; the one nearest the stored state kept. */
static int replay_attempt(void *ctx, int attempt)
{
	struct validate_attempt *a = ctx;
	struct mixmeas m;
	int err;

	if (attempt > 0)
		a->o->seed += 0x9e3779b97f4a7c15ULL;
	err = paired_measure(a->fr, a->dst, a->src, a->dist, a->o, &m);
	if (err)
		return err;
	a->gap = state_gap_pct(a->fr->meas, &m);
	if (attempt == 0 || fabs(a->gap) < fabs(a->best)) {
		mixmeas_free(a->out);
		*a->out = m;
		a->best = a->gap;
	} else {
		mixmeas_free(&m);
	}
	return 0;
}

/* Implausible as a check of the estimate: the kept replay beyond EST_VALIDATE_STATE_PCT. */
static int judge_state(void *ctx, int attempt, bool last, char *why, size_t len)
{
	struct validate_attempt *a = ctx;

	(void)attempt;
	(void)last;
	if (!(fabs(a->best) > EST_VALIDATE_STATE_PCT))
		return 0;
	snprintf(why, len,
		 "today's code ran %+.1f%% against the measurement's time a call: the machine is "
		 "in another state",
		 a->gap);
	return -EDOM;
}

/*
 * The replay into @out, by the measurement layer's one rule: again, with another seed, while
 * today's code runs more than EST_VALIDATE_STATE_PCT off the stored measurement's time, up to
 * MEASURE_RETRY_VALIDATE_TRIES in all; then the nearest kept, its gap stated (not refused).
 */
static int replay(struct est_family_result *fr, const double *dst, const double *src,
		  const double *dist, struct paired_opts *o, struct mixmeas *out)
{
	struct validate_attempt a = { fr, dst, src, dist, o, out, NAN, NAN };
	struct measure_retry rule = {
		.what = "validate",
		.tries = MEASURE_RETRY_VALIDATE_TRIES,
		.refuse = false,
		.measure = replay_attempt,
		.judge = judge_state,
		.ctx = &a,
	};
	int err;

	memset(out, 0, sizeof(*out));
	err = measure_retry_run(&rule);
	if (err == MEASURE_RETRY_KEPT)
		err = 0; /* the nearest kept: the text says it checks the state, not the estimate */
	if (err)
		mixmeas_free(out);
	fr->validate_state_pct = a.best;
	return err;
}

int paired_validate_family(const struct est_input *in, struct est_family_result *fr,
			   const struct paired_opts *po, struct mixmeas *out)
{
	struct paired_opts o = *po;
	double dst[64], src[64], *dist = malloc(CP_NBUCKETS * CP_NR_DIST * sizeof(*dist));
	bool aligned = est_family_alignments(in, fr->family, dst, src);
	bool far = dist && est_family_distances(in, fr->family, dist);
	size_t i;
	int err;

	o.seed = PAIRED_VALIDATE_SEED;
	if (fr->meas && isfinite(fr->meas->budget_s) && fr->meas->budget_s > 0)
		o.budget_s = fr->meas->budget_s;
	p_info("validate: replaying %s's mix under %zu policies, paired, for %.0f s or more",
	       est_family(fr->family)->name, est_family_timed_policies(fr), o.budget_s);
	if (!dist)
		return -ENOMEM;
	err = replay(fr, aligned ? dst : NULL, aligned ? src : NULL, far ? dist : NULL, &o, out);
	free(dist);
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
		struct policy_key key = est_policy_key(&fr->rows[i].pol);
		const struct mixmeas_row *r = mixmeas_row_find(out, &key);

		fr->validate_pct[i] = r ? r->quiet.delta_pct : NAN;
		fr->validate_lo[i] = r ? r->quiet.ci_low : NAN;
		fr->validate_hi[i] = r ? r->quiet.ci_high : NAN;
	}
	fr->noise_floor_pct = fmax(fabs(out->control.delta_pct),
				   (out->control.ci_high - out->control.ci_low) / 2);
	fr->validation = out;
	return 0;
}
