// SPDX-License-Identifier: GPL-2.0
/* agent_delta.c: a snapshot of every site's counts, and a later view made the difference */
#include <stdlib.h>
#include <string.h>
#include "agent_delta.h"
#include "lib/sparse_hist.h"

struct mark_site {
	uint32_t id;
	char *key; /* target, symbol, offset, leaf */
	struct sparse_hist buckets;
	uint64_t calls;
	uint64_t quality[3];
	struct sample_stack *stacks; /* frames and counts, copied */
	size_t nr_stacks;
};

struct agent_mark {
	struct mark_site *v;
	size_t nr;
	uint64_t total, idle, lost, outside; /* sample meta */
};

static char *identity(const struct profile_site *s)
{
	char *k;

	if (asprintf(&k, "%s|%s|%llx|%s", s->target ?: "", s->symbol ?: "",
		     (unsigned long long)s->offset, s->sample ? s->sample->leaf ?: "" : "") < 0)
		return NULL;
	return k;
}

void agent_mark_free(struct agent_mark *m)
{
	size_t i, k;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++) {
		free(m->v[i].key);
		sparse_hist_free(&m->v[i].buckets);
		for (k = 0; k < m->v[i].nr_stacks; k++)
			free(m->v[i].stacks[k].frames);
		free(m->v[i].stacks);
	}
	free(m->v);
	free(m);
}

static int copy_site(struct mark_site *d, const struct profile_site *s)
{
	size_t k;

	d->id = s->id;
	d->key = identity(s);
	if (sparse_hist_copy(&d->buckets, &s->buckets))
		return -1;
	d->calls = s->calls;
	if (!s->sample)
		return d->key ? 0 : -1;
	memcpy(d->quality, s->sample->quality, sizeof(d->quality));
	d->stacks = calloc(s->sample->nr_stacks ?: 1, sizeof(*d->stacks));
	if (!d->key || !d->stacks)
		return -1;
	for (k = 0; k < s->sample->nr_stacks; k++) {
		d->stacks[k].count = s->sample->stacks[k].count;
		d->stacks[k].frames = strdup(s->sample->stacks[k].frames);
		if (!d->stacks[k].frames)
			return -1;
		d->nr_stacks++;
	}
	return 0;
}

struct agent_mark *agent_mark_take(const struct profile *view)
{
	struct agent_mark *m = calloc(1, sizeof(*m));
	size_t i;

	if (!m || !(m->v = calloc(view->nr_sites ?: 1, sizeof(*m->v)))) {
		free(m);
		return NULL;
	}
	for (i = 0; i < view->nr_sites; i++, m->nr++)
		if (copy_site(&m->v[i], &view->sites[i])) {
			m->nr++;
			agent_mark_free(m);
			return NULL;
		}
	if (view->sample) {
		m->total = view->sample->total;
		m->idle = view->sample->idle;
		m->lost = view->sample->lost;
		m->outside = view->sample->outside;
	}
	return m;
}

static uint64_t less(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

static const struct mark_site *find(const struct agent_mark *m, const struct profile_site *s)
{
	char *key = identity(s);
	const struct mark_site *d = NULL;

	if (key && s->id < m->nr && m->v[s->id].key && !strcmp(m->v[s->id].key, key))
		d = &m->v[s->id];
	free(key);
	return d;
}

static void subtract_stacks(struct sample_site_info *si, const struct mark_site *d)
{
	size_t i, k;

	for (i = 0; i < si->nr_stacks; i++)
		for (k = 0; k < d->nr_stacks; k++)
			if (!strcmp(si->stacks[i].frames, d->stacks[k].frames)) {
				si->stacks[i].count = less(si->stacks[i].count, d->stacks[k].count);
				break;
			}
}

void agent_mark_subtract(struct profile *view, const struct agent_mark *m, double seconds)
{
	uint64_t calls;
	size_t i, q;
	struct hist_bucket *e;

	for (i = 0; i < view->nr_sites; i++) {
		struct profile_site *s = &view->sites[i];
		const struct mark_site *d = find(m, s);

		if (!d)
			continue; /* new since: all of it is in the window */
		sparse_hist_for_each (&s->buckets, e) {
			struct hist_slot then = sparse_hist_get(&d->buckets, e->b);

			e->count = less(e->count, then.count);
			e->bytes = less(e->bytes, then.bytes);
		}
		sparse_hist_prune(&s->buckets);
		calls = less(s->calls, d->calls);
		profile_site_sum(s);
		if (!s->sample)
			continue;
		/* A sampled site's calls are its samples, some of them without a length. */
		s->calls = calls;
		for (q = 0; q < 3; q++)
			s->sample->quality[q] = less(s->sample->quality[q], d->quality[q]);
		subtract_stacks(s->sample, d);
	}
	if (view->sample) {
		view->sample->total = less(view->sample->total, m->total);
		view->sample->idle = less(view->sample->idle, m->idle);
		view->sample->lost = less(view->sample->lost, m->lost);
		view->sample->outside = less(view->sample->outside, m->outside);
	}
	view->meta.duration_s = seconds;
}
