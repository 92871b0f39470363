// SPDX-License-Identifier: GPL-2.0
/* paired_inputs.c: calibrate --mix: every family of every input measured into a cost model */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "costmodel/costmodel_paired.h"
#include "costmodel/mixmeas_pool.h"
#include "estimate/estimate_digest.h"
#include "lib/host.h"
#include "lib/log.h"
#include "lib/stop.h"
#include "paired_inputs.h"
#include "paired_sites.h"

bool paired_model_is_here(const struct costmodel *m, char *why, size_t len)
{
	struct host_meta here = { 0 };
	char a[96], b[96];
	bool ok = false;

	host_fill_meta(&here);
	if (!m->measured)
		snprintf(why, len, "the cost model is built from published figures, not measured");
	else if (!m->meta.cpu_model)
		snprintf(why, len, "the cost model does not say which CPU it was measured on");
	else if (!here.cpu_model)
		snprintf(why, len,
			 "this machine's CPU is unknown (no \"model name\" in /proc/cpuinfo: is "
			 "/proc mounted?), so it cannot be told to be the cost model's (%s)",
			 m->meta.cpu_model);
	else if (!host_same_cpu(&m->meta, &here))
		snprintf(why, len,
			 "the cost model was measured on %s (%s), not on this CPU (%s, %s)",
			 m->meta.cpu_model, machine_describe(&m->meta.machine, a, sizeof(a)),
			 here.cpu_model, machine_describe(&here.machine, b, sizeof(b)));
	else
		ok = true;
	host_meta_free(&here);
	return ok;
}

/*
 * A sitting stored beside others: how many, and today's code's time per call in each, oldest
 * first (the same code under the same conditions: apart, the machine was in other states).
 */
static void say_sittings(const struct costmodel *m, const struct est_family_result *fr)
{
	const struct mixmeas *s[MIXMEAS_MAX_SITTINGS];
	const char *fam = est_family(fr->family)->name;
	size_t i, n = costmodel_paired_sittings(m, fam, fr->digest, NULL,
						&m->paired[m->nr_paired - 1], s,
						MIXMEAS_MAX_SITTINGS);
	char ns[MIXMEAS_MAX_SITTINGS * 12] = "";
	size_t k = 0;

	for (i = 0; i < n && k < sizeof(ns); i++) {
		const struct mixmeas_row *t =
			mixmeas_row_find(s[i], &(struct policy_key){ POLICY_TODAY, 0 });

		k += (size_t)snprintf(ns + k, sizeof(ns) - k, "%s%.2f", i ? ", " : "",
				      t ? t->ns_per_call : NAN);
	}
	p_info("calibrate --mix: %s: stored under mix %s, its sitting %zu under the same "
	       "conditions: estimate pools them (today's code %s ns a call in them)",
	       fam, fr->digest, n, ns);
}

static int measure_family(struct est_run *run, const struct est_input *in,
			  const struct est_family_result *fr, const struct paired_opts *po,
			  const char *what)
{
	double dst[64], src[64], *dist = malloc(CP_NBUCKETS * CP_NR_DIST * sizeof(*dist));
	char control[160];
	bool aligned = est_family_alignments(in, fr->family, dst, src);
	bool far = dist && est_family_distances(in, fr->family, dist);
	struct mixmeas mm;
	int err;

	p_info("calibrate --mix: %s: %s's mix under %zu policies against today's %s, paired, "
	       "for %.0f s or more",
	       in->name, est_family(fr->family)->name, est_family_timed_policies(fr),
	       fr->today_impl, po->budget_s);
	if (!dist)
		return -ENOMEM;
	err = paired_measure(fr, aligned ? dst : NULL, aligned ? src : NULL, far ? dist : NULL, po,
			     &mm);
	free(dist);
	if (err)
		return err;
	mm.digest = strdup(fr->digest);
	mm.input = strdup(what);
	mm.weight = strdup(fr->samples > 0 ? "time" : "calls");
	mm.calls_note = paired_calls_note(fr, &run->opts.o);
	if (!mm.digest || !mm.input || !mm.weight) {
		mixmeas_free(&mm);
		return -ENOMEM;
	}
	p_info("calibrate --mix: %s: %llu rounds in %.0f s (%llu on a quiet core), most on CPU %d, "
	       "%s",
	       est_family(fr->family)->name, (unsigned long long)mm.rounds, mm.time_s,
	       (unsigned long long)mm.quiet_rounds, mm.cpu,
	       paired_control_text(&mm, control, sizeof(control)));
	err = costmodel_store_paired(run->models[0], &mm);
	mixmeas_free(&mm);
	if (err == 1)
		p_info("calibrate --mix: %s: stored under mix %s", est_family(fr->family)->name,
		       fr->digest);
	else if (err > 1)
		say_sittings(run->models[0], fr);
	return err < 0 ? err : 0;
}

/*
 * @fr's mix in every condition of @c[0..n), its budget split evenly between them (at least
 * PAIRED_MIN_CONDITION_S each), each stored as a measurement of its own condition.
 */
static int measure_conditions(struct est_run *run, const struct est_input *in,
			      const struct est_family_result *fr, const struct paired_opts *po,
			      const struct paired_condition *c, size_t n, const char *what)
{
	struct paired_opts one = *po;
	char words[96];
	size_t k;
	int err = 0;

	one.budget_s = po->budget_s / (double)n;
	if (one.budget_s < PAIRED_MIN_CONDITION_S)
		one.budget_s = PAIRED_MIN_CONDITION_S;
	for (k = 0; k < n && !err; k++) {
		one.cache = &c[k].cache;
		one.ws_bytes = c[k].ws_bytes;
		if (n > 1)
			p_info("calibrate --mix: %s: condition %zu of %zu: %s, %.1f s of the "
			       "budget (docs/calibrate.md#conditions)",
			       est_family(fr->family)->name, k + 1, n,
			       paired_condition_words(&c[k], words, sizeof(words)), one.budget_s);
		err = measure_family(run, in, fr, &one, what);
	}
	return err;
}

/* Every family of every input, measured once in every condition: one sitting. */
static int one_sitting(struct est_run *run, const struct paired_opts *po,
		       const struct paired_condition *c, size_t n, const char *what)
{
	struct paired_opts ref = *po;
	size_t i, j;
	int err = 0;

	/* The sites' own mixes: in the reference condition (the first) alone. */
	ref.cache = &c[0].cache;
	ref.ws_bytes = c[0].ws_bytes;
	for (i = 0; i < run->nr_ins && !err; i++) {
		struct est_report r;

		err = est_run_input(run, i, &r);
		for (j = 0; !err && j < r.nr_fam; j++) {
			err = measure_conditions(run, &run->ins[i], &r.fam[j], po, c, n, what);
			if (!err)
				err = paired_measure_sites(run, &run->ins[i], &r.fam[j], &ref,
							   po->site_budget_s, what);
		}
		est_report_free(&r);
	}
	return err;
}

/* @s seconds idle, fewer when a signal asks to stop (-EINTR then). */
static int pause_for(double s)
{
	struct timespec left = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (!stop_requested() && (left.tv_sec || left.tv_nsec) && nanosleep(&left, &left))
		;
	return stop_requested() ? -EINTR : 0;
}

int paired_measure_inputs(struct est_run *run, const struct paired_opts *po,
			  const struct paired_condition *c, size_t n, const char *what,
			  unsigned int sittings, double gap_s)
{
	char why[256];
	unsigned int k;
	int err = 0;

	if (!paired_model_is_here(run->models[0], why, sizeof(why))) {
		p_err("calibrate --mix: %s: %s; measure with a model calibrated on this CPU",
		      run->model_names[0], why);
		return -EINVAL;
	}
	for (k = 0; k < sittings && !err; k++) {
		if (k) {
			p_info("calibrate --mix: sitting %u of %u in %.0f s (the machine's states "
			       "that outlast a sitting: docs/estimate.md#sittings)",
			       k + 1, sittings, gap_s);
			err = pause_for(gap_s);
		}
		if (!err)
			err = one_sitting(run, po, c, n, what);
	}
	return err;
}
