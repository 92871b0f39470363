// SPDX-License-Identifier: GPL-2.0
/* estimate_mix.c: the mix correction: each replica's short lengths shuffled against sorted */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "estimate_mix.h"
#include "log.h"
#include "replay.h"
#include "sysinfo.h"

const struct est_mix_impl *est_mix_find(const struct est_mix *mix, const char *impl)
{
	size_t i;

	if (!mix || !mix->applied || !impl)
		return NULL;
	for (i = 0; i < mix->nr_impls; i++)
		if (!strcmp(mix->impls[i].impl, impl))
			return &mix->impls[i];
	return NULL;
}

double est_mix_penalty(const struct est_mix *mix, const char *impl)
{
	const struct est_mix_impl *e = est_mix_find(mix, impl);

	return e ? e->penalty_ns : 0;
}

void est_mix_skip(struct est_mix *mix, const char *why)
{
	memset(mix, 0, sizeof(*mix));
	mix->cutoff = EST_MIX_CUTOFF;
	snprintf(mix->why, sizeof(mix->why), "%s", why);
}

bool est_mix_model_is_here(const struct costmodel *m, struct est_mix *mix)
{
	struct profile_meta here = { 0 };
	char why[sizeof(mix->why)];
	bool ok = false;

	sysinfo_fill_meta(&here);
	if (!m->measured)
		snprintf(why, sizeof(why),
			 "the cost model is built from published figures, not measured");
	else if (!m->meta.cpu_model || !here.cpu_model)
		snprintf(why, sizeof(why), "the cost model's CPU is unknown");
	else if (strcmp(m->meta.cpu_model, here.cpu_model))
		snprintf(why, sizeof(why), "the cost model was measured on %s, not this CPU",
			 m->meta.cpu_model);
	else
		ok = true;
	profile_meta_free(&here);
	if (!ok)
		est_mix_skip(mix, why);
	return ok;
}

/*
 * The loop's, the string op's and today's replicas, each once, and the dispatch replica if @m
 * measured it at a T from the cutoff up (below it, the sample runs only its loop side).
 */
static size_t mix_impls(const struct est_family_result *fr, const struct costmodel *m,
			const char **names)
{
	const struct est_family_impls *fi = est_family(fr->family);
	const char *all[4] = { fi->loop, fi->string, fr->today_impl, NULL };
	const struct costmodel_curve *d =
		fi->dispatch ? costmodel_find(m, fi->dispatch, COSTMODEL_WARM) : NULL;
	size_t i, j, n = 0, nall = 3;

	if (d && d->nr_points && (d->threshold < 0 || d->threshold >= EST_MIX_CUTOFF))
		all[nall++] = fi->dispatch;
	for (i = 0; i < nall; i++) {
		for (j = 0; j < n && strcmp(names[j], all[i]); j++)
			;
		if (j == n)
			names[n++] = all[i];
	}
	return n;
}

int est_mix_measure(const struct est_family_result *fr, const struct costmodel *m,
		    const struct est_cache *cache, struct est_mix *mix)
{
	struct replay_opts ro = { cache, m->cpu, EST_MIX_CALLS, EST_MIX_RUNS, EST_MIX_SEED };
	struct replay_mix_cost cost[EST_MIX_MAX_IMPLS];
	const char *names[EST_MIX_MAX_IMPLS];
	size_t i, n = mix_impls(fr, m, names);
	int err, cpu = -1;

	err = replay_mix(fr, &ro, EST_MIX_CUTOFF, m, names, n, cost, &cpu);
	if (err == -ENOENT) {
		est_mix_skip(mix, "no calls below the cutoff");
		return 0;
	}
	if (err)
		return err;
	memset(mix, 0, sizeof(*mix));
	mix->applied = true;
	mix->cutoff = EST_MIX_CUTOFF;
	mix->calls = EST_MIX_CALLS;
	mix->runs = EST_MIX_RUNS;
	mix->cpu = cpu;
	mix->nr_impls = n;
	for (i = 0; i < n; i++) {
		struct est_mix_impl *e = &mix->impls[i];
		bool ok = isfinite(cost[i].shuffled_ns) && isfinite(cost[i].sorted_ns) &&
			  cost[i].shuffled_ns > 0 && cost[i].sorted_ns > 0;

		e->impl = names[i];
		e->shuffled_ns = cost[i].shuffled_ns;
		e->sorted_ns = cost[i].sorted_ns;
		e->predicted_ns = cost[i].predicted_ns;
		e->penalty_ns = ok ? e->shuffled_ns - e->sorted_ns : 0;
		p_debug("mix correction: %s %s: %.2f ns/call shuffled, %.2f sorted (model %.2f): "
			"%+.2f ns", est_family(fr->family)->name, e->impl, e->shuffled_ns,
			e->sorted_ns, e->predicted_ns, e->penalty_ns);
	}
	return 0;
}
