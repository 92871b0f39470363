// SPDX-License-Identifier: GPL-2.0
/* agent_sample.c: the agent's sampling: record_sample.c's recorder kept open and read at scrapes */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agent_sample.h"
#include "lib/log.h"
#include "profile/profile_sample.h"
#include "record/record_mixed.h"

static int start(struct agent_sampler *s, uint32_t hz, uint32_t tgid, const char *comm)
{
	s->sa.hz = hz ? hz : RECORD_SAMPLE_DEFAULT_HZ;
	s->sa.run.pid = tgid;
	s->sa.run.comm = comm;
	s->sa.poll_ms = 1;
	s->sa.fallback = s->fb.why[0] ? s->fb.why : NULL;
	s->sa.keep = (const char *const *)s->fb.keep;
	s->sa.nr_keep = s->fb.nr_keep;
	s->rec = record_sample_new(&s->sa);
	if (!s->rec)
		return -ENOMEM;
	if (record_sample_ops.prepare(s->rec, NULL) || record_sample_ops.open(s->rec, tgid)) {
		record_sample_ops.close(s->rec);
		free(s->rec);
		s->rec = NULL;
		return -EIO;
	}
	return 0;
}

int agent_sample_start(struct agent_sampler *s, bool want_sample, uint32_t hz, uint32_t tgid,
		       const char *comm, const struct record_plan_args *plan, int nr_counted,
		       struct record_plan_sampled *sampled)
{
	int err;

	if (want_sample) {
		p_info("sampling every copy-family sample at %u Hz per CPU: served as samples, "
		       "not calls",
		       hz ? hz : RECORD_SAMPLE_DEFAULT_HZ);
	} else if ((err = record_plan_fallback(plan, nr_counted, hz, NULL, &s->fb))) {
		if (err < 0)
			return -EINVAL;
		if (s->fb.every_task)
			tgid = 0; /* kernel work such as decompression runs in kworkers */
	} else if (sampled && sampled->nr) {
		s->want = sampled;
		p_info("sampling the %zu function(s) no probe can take, beside the %d counted "
		       "site(s): served as samples, not calls",
		       sampled->nr, nr_counted);
	} else {
		return 0;
	}
	err = start(s, hz, tgid, comm);
	if (err)
		p_err("sampling could not start; the agent cannot serve what was asked");
	return err;
}

int agent_sample_drain(struct agent_sampler *s)
{
	return s->rec ? record_sample_ops.wait(s->rec) : 0;
}

static char *site_key(const struct profile_site *ps)
{
	char *k;

	if (asprintf(&k, "%s|%s|%s|%llx", ps->sample->leaf ?: "", ps->target ?: "",
		     ps->symbol ?: "", (unsigned long long)ps->offset) < 0)
		return NULL;
	return k;
}

/* The position of @ps's key in the first-seen order, added at the end when new. */
static size_t order_of(struct agent_sampler *s, const struct profile_site *ps)
{
	char *k = site_key(ps), **v;
	size_t i;

	if (!k)
		return SIZE_MAX;
	for (i = 0; i < s->nr_order; i++)
		if (!strcmp(s->order[i], k)) {
			free(k);
			return i;
		}
	v = realloc(s->order, (s->nr_order + 1) * sizeof(*v));
	if (!v) {
		free(k);
		return SIZE_MAX;
	}
	s->order = v;
	s->order[s->nr_order] = k;
	return s->nr_order++;
}

struct ranked {
	size_t rank;
	struct profile_site site;
};

static int rank_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

int agent_sample_append(struct agent_sampler *s, struct profile *view)
{
	size_t base = view->nr_sites, i, n;
	struct ranked *r;
	int err;

	if (!s->rec)
		return 0;
	err = record_sample_snapshot(s->rec, view);
	if (err)
		return err;
	if (s->want)
		record_mixed_keep(view, s->want);
	n = view->nr_sites - base;
	if (!n)
		return 0;
	r = calloc(n, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		r[i].site = view->sites[base + i];
		r[i].rank = order_of(s, &r[i].site);
	}
	qsort(r, n, sizeof(*r), rank_cmp);
	for (i = 0; i < n; i++) {
		view->sites[base + i] = r[i].site;
		view->sites[base + i].id = (uint32_t)(base + i);
	}
	free(r);
	return 0;
}

void agent_sample_trim(struct profile *view, size_t nr_counted)
{
	while (view->nr_sites > nr_counted) {
		struct profile_site *ps = &view->sites[--view->nr_sites];

		profile_site_clear(ps);
		memset(ps, 0, sizeof(*ps));
	}
}

void agent_sample_stop(struct agent_sampler *s)
{
	size_t i;

	if (s->rec) {
		record_sample_ops.close(s->rec);
		free(s->rec);
	}
	s->rec = NULL;
	record_plan_fallback_free(&s->fb);
	for (i = 0; i < s->nr_order; i++)
		free(s->order[i]);
	free(s->order);
	s->order = NULL;
	s->nr_order = 0;
}
