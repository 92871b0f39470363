// SPDX-License-Identifier: GPL-2.0
/* estimate_mix_measure.c: the mix correction measured: short lengths replayed by size class */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "estimate_mix_measure.h"
#include "estimate_result.h"
#include "lib/host.h"
#include "lib/log.h"
#include "replay.h"

size_t est_mix_calls(const struct est_cache *cache)
{
	/* Flushed calls are timed one by one after a flush: fewer, to keep the time in bounds. */
	return cache->w[COSTMODEL_SRC_FLUSHED] > 0 || cache->w[COSTMODEL_DST_FLUSHED] > 0
		       ? EST_MIX_CALLS_FLUSHED
		       : EST_MIX_CALLS;
}

bool est_mix_model_is_here(const struct costmodel *m, struct est_mix *mix)
{
	struct host_meta here = { 0 };
	char why[sizeof(mix->why)];
	bool ok = false;

	host_fill_meta(&here);
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
	host_meta_free(&here);
	if (!ok)
		est_mix_skip(mix, why);
	return ok;
}

/*
 * The loop's (below each class's end), the string op's (from each class's start) and today's
 * replicas, each once, and the dispatch replica (below each class's end) if @m measured it at a
 * T from the cutoff up (below it, the samples run only its loop side).
 */
static void mix_impls(const struct est_family_result *fr, const struct costmodel *m,
		      struct est_mix *mix)
{
	const struct est_family_impls *fi = est_family(fr->family);
	const char *names[4] = { fi->loop, fi->string, fr->today_impl, NULL };
	enum est_mix_span spans[4] = { EST_MIX_SPAN_BELOW, EST_MIX_SPAN_FROM, EST_MIX_SPAN_ALL,
				       EST_MIX_SPAN_BELOW };
	const struct costmodel_curve *d =
		fi->dispatch ? costmodel_find(m, fi->dispatch, COSTMODEL_WARM) : NULL;
	size_t i, j, nall = 3;

	if (d && d->nr_points && (d->threshold < 0 || d->threshold >= EST_MIX_CUTOFF))
		names[nall++] = fi->dispatch;
	mix->nr_impls = 0;
	for (i = 0; i < nall; i++) {
		for (j = 0; j < mix->nr_impls && strcmp(mix->impls[j].impl, names[i]); j++)
			;
		if (j == mix->nr_impls)
			mix->impls[mix->nr_impls++] =
				(struct est_mix_impl){ .impl = names[i], .span = spans[i] };
	}
}

/*
 * The samples each implementation is timed on (est_mix_impl.samples), then the split's (one
 * per inner class edge), in replay_mix()'s terms.
 */
static size_t mix_samples(struct est_mix *mix, enum est_family f, struct replay_mix_sample *s)
{
	const struct est_family_impls *fi = est_family(f);
	size_t i, k, n = 0;

	for (i = 0; i < mix->nr_impls; i++) {
		struct est_mix_impl *e = &mix->impls[i];
		size_t nk = e->span == EST_MIX_SPAN_ALL ? 1 : mix->classes.nr;

		for (k = 0; k < nk; k++) {
			struct est_mix_sample *q = &e->samples[k];

			q->lo = e->span == EST_MIX_SPAN_FROM ? mix->classes.edges[k] : 0;
			q->hi = e->span == EST_MIX_SPAN_BELOW ? mix->classes.edges[k + 1]
							      : mix->cutoff;
			s[n++] = (struct replay_mix_sample){ .impl = e->impl,
							     .lo = q->lo,
							     .hi = q->hi };
		}
		e->nr_samples = nk;
	}
	/* The policy as --validate runs it: the dispatch replica at T, or the two switched in C. */
	mix->split.impl = NULL;
	for (i = 0; i < mix->nr_impls && fi->dispatch; i++)
		if (!strcmp(mix->impls[i].impl, fi->dispatch))
			mix->split.impl = fi->dispatch;
	for (k = 1; k < mix->classes.nr; k++) {
		struct est_mix_sample *q = &mix->split.samples[k];

		*q = (struct est_mix_sample){ .lo = 0,
					      .hi = mix->cutoff,
					      .t = mix->classes.edges[k] };
		s[n++] = (struct replay_mix_sample){ .impl = mix->split.impl ? mix->split.impl
									     : fi->loop,
						     .string = mix->split.impl ? NULL : fi->string,
						     .t = q->t,
						     .lo = q->lo,
						     .hi = q->hi };
	}
	return n;
}

static void set_sample(struct est_mix_sample *q, const struct replay_mix_cost *c)
{
	bool ok = isfinite(c->shuffled_ns) && isfinite(c->sorted_ns) && c->shuffled_ns > 0 &&
		  c->sorted_ns > 0;

	q->shuffled_ns = c->shuffled_ns;
	q->sorted_ns = c->sorted_ns;
	q->predicted_ns = c->predicted_ns;
	q->penalty_ns = ok ? c->shuffled_ns - c->sorted_ns : 0;
}

int est_mix_measure(const struct est_family_result *fr, const struct costmodel *m,
		    const struct est_cache *cache, struct est_mix *mix)
{
	struct replay_opts ro = { cache, m->cpu, est_mix_calls(cache), EST_MIX_RUNS, EST_MIX_SEED };
	struct replay_mix_sample spec[REPLAY_MIX_MAX_SAMPLES];
	struct replay_mix_cost cost[REPLAY_MIX_MAX_SAMPLES];
	size_t i, k, n, ns = 0;
	int err, cpu = -1;

	memset(mix, 0, sizeof(*mix));
	mix->cutoff = EST_MIX_CUTOFF;
	if (est_mix_choose_classes(mix, fr->bucket_calls) <= 0) {
		est_mix_skip(mix, "no calls below the cutoff");
		return 0;
	}
	mix_impls(fr, m, mix);
	n = mix_samples(mix, fr->family, spec);
	err = replay_mix(fr, &ro, m, spec, n, cost, &cpu);
	if (err == -ENOENT) {
		est_mix_skip(mix, "no calls below the cutoff");
		return 0;
	}
	if (err)
		return err;
	mix->applied = true;
	mix->calls = ro.max_calls;
	mix->runs = EST_MIX_RUNS;
	mix->cpu = cpu;
	for (i = 0; i < mix->nr_impls; i++) {
		struct est_mix_impl *e = &mix->impls[i];

		for (k = 0; k < e->nr_samples; k++, ns++) {
			struct est_mix_sample *q = &e->samples[k];

			set_sample(q, &cost[ns]);
			p_debug("mix correction: %s %s, lengths %llu-%llu: %.2f ns/call shuffled, "
				"%.2f sorted (model %.2f): %+.2f ns",
				est_family(fr->family)->name, e->impl, (unsigned long long)q->lo,
				(unsigned long long)q->hi - 1, q->shuffled_ns, q->sorted_ns,
				q->predicted_ns, q->penalty_ns);
		}
	}
	for (k = 1; k < mix->classes.nr; k++, ns++) {
		struct est_mix_sample *q = &mix->split.samples[k];

		set_sample(q, &cost[ns]);
		p_debug("mix correction: %s split at T=%llu: %.2f ns/call shuffled, %.2f sorted: "
			"%+.2f ns",
			est_family(fr->family)->name, (unsigned long long)q->t, q->shuffled_ns,
			q->sorted_ns, q->penalty_ns);
	}
	est_mix_derive(mix, fr->family);
	return 0;
}
