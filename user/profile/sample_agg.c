// SPDX-License-Identifier: GPL-2.0
/* sample_agg.c: charge copy-family samples to (leaf, caller) sites; keep folded stacks */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sites/len_recovery.h"
#include "sample_agg.h"
#include "lib/counter_map.h"

struct agg_site {
	char *leaf, *caller, *module;
	enum copy_family family;
	uint64_t offset;
	uint64_t samples;
	uint64_t quality[LEN_NR_QUALITIES];
	struct sparse_hist buckets;
	struct counter_map stacks;
};

struct sample_agg {
	struct agg_site **sites;
	size_t nr, cap;
	struct counter_map index; /* site key -> position + 1 in sites */
	uint64_t samples;
};

#define UNKNOWN_FRAME "[unknown]"

bool sample_attribute(const struct sample_frame *frames, size_t nr, int rep_width, bool rep_movs,
		      struct sample_attr *out)
{
	const struct copy_family_leaf *leaf;

	memset(out, 0, sizeof(*out));
	out->caller = -1;
	if (!nr || copy_family_excluded(frames[0].sym))
		return false;
	leaf = copy_family_lookup(frames[0].sym);
	/* glibc has a memcpy too: the built-in list names kernel routines only. */
	if (leaf && frames[0].user && leaf->family != CF_LEAF)
		leaf = NULL;
	if (leaf) {
		out->leaf = leaf->canonical;
		out->family = leaf->family;
		out->conv = &leaf->conv;
		out->caller = nr > 1 ? 1 : -1;
		return true;
	}
	if (rep_width <= 0)
		return false;
	out->leaf = copy_family_inline_name(rep_width, rep_movs);
	out->family = copy_family_inline_family(rep_movs);
	out->caller = 0;
	return true;
}

struct sample_agg *sample_agg_new(void)
{
	return calloc(1, sizeof(struct sample_agg));
}

static void site_free(struct agg_site *s)
{
	if (!s)
		return;
	free(s->leaf);
	free(s->caller);
	free(s->module);
	sparse_hist_free(&s->buckets);
	counter_map_free(&s->stacks);
	free(s);
}

void sample_agg_free(struct sample_agg *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nr; i++)
		site_free(a->sites[i]);
	free(a->sites);
	counter_map_free(&a->index);
	free(a);
}

static const char *frame_name(const struct sample_frame *f)
{
	return f->sym && *f->sym ? f->sym : UNKNOWN_FRAME;
}

static struct agg_site *site_get(struct sample_agg *a, const struct sample_attr *at,
				 const struct sample_frame *caller)
{
	const char *cname = caller ? frame_name(caller) : UNKNOWN_FRAME;
	const char *module = caller && caller->module ? caller->module : "";
	uint64_t off = caller && caller->sym ? caller->off : 0;
	struct counter_map_ent *e;
	struct agg_site *s;
	char *key;

	if (asprintf(&key, "%s|%s|%s|%llx", at->leaf, module, cname, (unsigned long long)off) < 0)
		return NULL;
	e = counter_map_get(&a->index, key);
	free(key);
	if (!e)
		return NULL;
	if (e->value)
		return a->sites[e->value - 1];
	if (a->nr == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 32;
		struct agg_site **n = realloc(a->sites, cap * sizeof(*n));

		if (!n)
			return NULL;
		a->sites = n;
		a->cap = cap;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->leaf = strdup(at->leaf);
	s->family = at->family;
	s->caller = strdup(cname);
	s->module = strdup(*module ? module : "");
	s->offset = off;
	if (!s->leaf || !s->caller || !s->module) {
		site_free(s);
		return NULL;
	}
	a->sites[a->nr++] = s;
	e->value = a->nr;
	return s;
}

/* Root first, joined by ';'; the leaf frame under its canonical name (or the pseudo leaf). */
static char *fold(const struct sample_attr *at, const struct sample_frame *frames, size_t nr)
{
	size_t len = 1, i;
	char *s, *p;

	for (i = 0; i < nr; i++)
		len += strlen(frame_name(&frames[i])) + 1;
	len += strlen(at->leaf) + 1;
	s = p = malloc(len);
	if (!s)
		return NULL;
	for (i = nr; i-- > 0;) {
		const char *name = i == 0 && at->conv ? at->leaf : frame_name(&frames[i]);

		p += sprintf(p, "%s%s", p == s ? "" : ";", name);
	}
	if (!at->conv)
		sprintf(p, "%s%s", p == s ? "" : ";", at->leaf);
	return s;
}

/*
 * A site's stacks are counted per task: the key is "PID/LEN/COMM" then the folded stack
 * (comm may hold any byte, so its length says where it ends), or "-" and the stack.
 */
static char *task_key(const struct sample_task *task, const char *folded)
{
	const char *comm = task && task->comm ? task->comm : "";
	char *key;

	if (!task)
		return asprintf(&key, "-%s", folded) < 0 ? NULL : key;
	if (asprintf(&key, "%u/%zu/%s%s", task->pid, strlen(comm), comm, folded) < 0)
		return NULL;
	return key;
}

/* The inverse of task_key(): @st gets the stack, its task and @count; 0 or -ENOMEM. */
static int task_unkey(const char *key, uint64_t count, struct sample_stack *st)
{
	unsigned long pid, len;
	char *end;

	*st = (struct sample_stack){ .count = count };
	if (key[0] == '-') {
		st->frames = strdup(key + 1);
		return st->frames ? 0 : -ENOMEM;
	}
	pid = strtoul(key, &end, 10);
	len = strtoul(end + 1, &end, 10);
	st->has_task = true;
	st->pid = (uint32_t)pid;
	st->comm = strndup(end + 1, len);
	st->frames = strdup(end + 1 + len);
	return st->comm && st->frames ? 0 : -ENOMEM;
}

int sample_agg_add(struct sample_agg *a, const struct sample_attr *at,
		   const struct sample_frame *frames, size_t nr, const struct sample_task *task,
		   int quality, uint64_t len, uint64_t weight)
{
	struct agg_site *s = site_get(a, at, at->caller >= 0 ? &frames[at->caller] : NULL);
	struct counter_map_ent *e;
	char *folded, *key;

	if (!s)
		return -ENOMEM;
	s->samples += weight;
	a->samples += weight;
	if (quality < 0 || quality >= LEN_NR_QUALITIES)
		quality = LEN_UNKNOWN;
	s->quality[quality] += weight;
	if (quality != LEN_UNKNOWN &&
	    sparse_hist_add(&s->buckets, cp_bucket_of(len), weight, len * weight))
		return -ENOMEM;
	folded = fold(at, frames, nr);
	if (!folded)
		return -ENOMEM;
	key = task_key(task, folded);
	free(folded);
	if (!key)
		return -ENOMEM;
	e = counter_map_get(&s->stacks, key);
	free(key);
	if (!e)
		return -ENOMEM;
	e->value += weight;
	return 0;
}

uint64_t sample_agg_samples(const struct sample_agg *a)
{
	return a->samples;
}

static int site_cmp(const void *x, const void *y)
{
	const struct agg_site *a = *(struct agg_site *const *)x, *b = *(struct agg_site *const *)y;
	int c;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if ((c = strcmp(a->leaf, b->leaf)) || (c = strcmp(a->module, b->module)) ||
	    (c = strcmp(a->caller, b->caller)))
		return c;
	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

static struct sample_site_info *site_info(struct agg_site *s)
{
	struct sample_site_info *si = calloc(1, sizeof(*si));
	size_t i;

	if (!si)
		return NULL;
	si->leaf = strdup(s->leaf);
	memcpy(si->quality, s->quality, sizeof(si->quality));
	si->stacks = calloc(s->stacks.nr ? s->stacks.nr : 1, sizeof(*si->stacks));
	if (!si->leaf || !si->stacks) {
		sample_site_info_free(si);
		return NULL;
	}
	for (i = 0; i < s->stacks.cap; i++) {
		struct counter_map_ent *e = &s->stacks.ents[i];

		if (!e->key)
			continue;
		if (task_unkey(e->key, e->value, &si->stacks[si->nr_stacks])) {
			free(si->stacks[si->nr_stacks].frames);
			free(si->stacks[si->nr_stacks].comm);
			sample_site_info_free(si);
			return NULL;
		}
		si->nr_stacks++;
	}
	if (si->nr_stacks)
		qsort(si->stacks, si->nr_stacks, sizeof(*si->stacks), sample_stack_cmp);
	return si;
}

int sample_agg_to_profile(struct sample_agg *a, struct profile *p)
{
	size_t i;

	if (a->nr) /* no copy site: no array (qsort of NULL is undefined even for 0) */
		qsort(a->sites, a->nr, sizeof(*a->sites), site_cmp);
	for (i = 0; i < a->nr; i++) {
		struct agg_site *as = a->sites[i];
		struct profile_site *s = profile_add_site(p);

		if (!s)
			return -ENOMEM;
		s->target = strdup(*as->module ? as->module : "[unknown]");
		s->symbol = strdup(as->caller);
		s->offset = as->offset;
		s->mechanism = strdup("sample");
		s->len_arg = strdup("recovered");
		s->family = as->family;
		/* A copy: a live recorder (the agent) turns the same sums into profiles again. */
		if (sparse_hist_copy(&s->buckets, &as->buckets))
			return -ENOMEM;
		profile_site_sum(s);
		/* Samples without a length count too: calls is every sample of the site. */
		s->calls = as->samples;
		s->sample = site_info(as);
		if (!s->target || !s->symbol || !s->mechanism || !s->len_arg || !s->sample)
			return -ENOMEM;
	}
	return 0;
}
