// SPDX-License-Identifier: GPL-2.0
/* paired_plan.c: which code each policy row runs on a mix, rows that run the same code shared */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lib/log.h"
#include "asmref_glibc.h"
#include "paired_plan.h"

/*
 * The mix's buckets wholly below @t, or -1 if a bucket the mix draws from straddles @t: two
 * thresholds of the same class send every call the same way.
 */
static long threshold_class(const struct replay_mix *mx, uint64_t t)
{
	long below = 0;
	size_t k;

	for (k = 0; k < mx->nr; k++) {
		if (mx->hi[k] <= t)
			below++;
		else if (mx->lo[k] < t)
			return -1;
	}
	return below;
}

static bool same_code(const struct paired_path *a, long ca, const struct paired_path *b, long cb)
{
	if (a->dispatch != b->dispatch)
		return false;
	if (!a->dispatch && a->t == UINT64_MAX && b->t == UINT64_MAX)
		return a->lo == b->lo;
	/* Thresholds (dispatch replica, or switched in C) of the same class. */
	return a->lo == b->lo && a->hi == b->hi && ca >= 0 && ca == cb;
}

static int path_of(const struct est_family_result *fr, const struct est_row *w,
		   struct paired_path *p)
{
	const struct est_family_impls *fi = fr->impls ?: est_family(fr->family);
	const char *missing = NULL;
	bool knob_today = w->pol.kind == POLICY_TODAY && fi->glibc;

	memset(p, 0, sizeof(*p));
	p->t = UINT64_MAX;
	snprintf(p->name, sizeof(p->name), "%s", w->pol.name);
	switch (knob_today ? POLICY_THRESHOLD : w->pol.kind) {
	case POLICY_TODAY:
		p->lo = p->hi = asmref_find(fr->today_impl);
		missing = p->lo ? NULL : fr->today_impl;
		break;
	case POLICY_ALWAYS:
		p->lo = p->hi = asmref_find(fi->string);
		missing = p->lo ? NULL : fi->string;
		break;
	case POLICY_THRESHOLD:
		if (fi->knob) {
			/* The real code with its threshold set: the seed's dispatch, glibc's own. */
			p->lo = p->hi = asmref_find(fi->knob);
			p->dispatch = true;
			p->dispatch_t = w->pol.threshold;
			p->from = fi->glibc && w->pol.threshold != UINT64_MAX ? w->pol.threshold + 1
									      : w->pol.threshold;
			missing = p->lo ? NULL : fi->knob;
		} else {
			p->lo = asmref_find(fi->loop);
			p->hi = asmref_find(fi->string);
			p->t = w->pol.threshold;
			missing = !p->lo ? fi->loop : !p->hi ? fi->string : NULL;
		}
		break;
	case POLICY_ORACLE:
		return 1;
	}
	if (missing) {
		p_err("replay: no asm-ref replica %s for the %s policy", missing ?: "?",
		      w->pol.name);
		return -ENOENT;
	}
	return 0;
}

int paired_plan_make(const struct est_family_result *fr, const struct replay_mix *mx,
		     struct paired_plan *pl)
{
	long cls[PAIRED_MAX_PATHS];
	size_t i, j;
	int err;

	memset(pl, 0, sizeof(*pl));
	pl->always = pl->zero = -1;
	pl->nr_rows = fr->nr_rows;
	for (i = 0; i < fr->nr_rows && i < EST_MAX_POLICIES; i++) {
		const struct est_row *w = &fr->rows[i];
		struct paired_path p;
		long c;

		err = path_of(fr, w, &p);
		if (err < 0)
			return err;
		if (err > 0) {
			pl->row_path[i] = -1;
			continue;
		}
		c = p.dispatch			      ? threshold_class(mx, p.from)
		    : w->pol.kind == POLICY_THRESHOLD ? threshold_class(mx, w->pol.threshold)
						      : -2;
		/* Switched in C, a T that sends every call one way runs that replica alone. */
		if (w->pol.kind == POLICY_THRESHOLD && !p.dispatch &&
		    (c == 0 || c == (long)mx->nr)) {
			p.lo = p.hi = c ? p.lo : p.hi;
			p.t = UINT64_MAX;
		}
		for (j = 0; j < pl->nr_paths && !same_code(&pl->paths[j], cls[j], &p, c); j++)
			;
		if (j == pl->nr_paths) {
			cls[j] = c;
			pl->paths[pl->nr_paths++] = p;
		}
		pl->row_path[i] = (int)j;
		if (w->pol.kind == POLICY_TODAY)
			pl->today = j;
		if (w->pol.kind == POLICY_ALWAYS)
			pl->always = (int)j;
		if (w->pol.kind == POLICY_THRESHOLD && w->pol.threshold == 0)
			pl->zero = (int)j;
	}
	pl->control = pl->nr_paths;
	pl->paths[pl->nr_paths] = pl->paths[pl->today];
	snprintf(pl->paths[pl->nr_paths].name, sizeof(pl->paths[0].name), "today (A/A)");
	pl->nr_paths++;
	return 0;
}

void paired_path_use(const struct paired_path *p)
{
	if (p->dispatch)
		asmref_set_knob(p->lo, p->dispatch_t);
	else
		asmref_prepare(p->lo); /* a glibc row alone: its base thresholds */
}

double paired_path_time(const struct calib_timer *t, const struct paired_path *p,
			const struct calib_call *calls, size_t n)
{
	uint64_t t0, t1;

	t0 = calib_tsc_begin();
	calib_loop_calls(p->lo, p->hi, p->t, calls, n);
	t1 = calib_tsc_end(t);
	return (double)(t1 - t0) - t->overhead;
}

void paired_path_reset(void)
{
	struct asmref_glibc_knobs k;

	asmref_set_threshold(ASMREF_ERMS_THRESHOLD_DEFAULT);
	asmref_glibc_get_base(&k);
	asmref_glibc_set_knobs(&k);
}
