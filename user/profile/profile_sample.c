// SPDX-License-Identifier: GPL-2.0
/* profile_sample.c: JSON of the sampled-profile fields: leaf, length quality, stacks, meta */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "folded.h"
#include "lib/counter_map.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "profile_sample.h"

static const char *const quality_keys[3] = { "unknown", "approximate", "exact" };

void sample_site_info_free(struct sample_site_info *si)
{
	size_t i;

	if (!si)
		return;
	free(si->leaf);
	for (i = 0; i < si->nr_stacks; i++) {
		free(si->stacks[i].frames);
		free(si->stacks[i].comm);
	}
	free(si->stacks);
	free(si);
}

/* Tasks first by pid, then comm; stacks without a task after those with one. */
static int task_cmp(const struct sample_stack *a, const struct sample_stack *b)
{
	if (a->has_task != b->has_task)
		return a->has_task ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return strcmp(a->comm ?: "", b->comm ?: "");
}

int sample_stack_cmp(const void *x, const void *y)
{
	const struct sample_stack *a = x, *b = y;
	int c;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if ((c = strcmp(a->frames, b->frames)))
		return c;
	return task_cmp(a, b);
}

bool sample_stack_same(const struct sample_stack *a, const struct sample_stack *b)
{
	return !strcmp(a->frames, b->frames) && !task_cmp(a, b);
}

void sample_meta_free(struct sample_meta *sm)
{
	if (!sm)
		return;
	free(sm->event);
	free(sm->fallback);
	free(sm->lengths_note);
	free(sm->scope);
	free(sm);
}

/* json_object_array_sort's comparator: most samples, then pid, then comm. */
static int task_json_cmp(const void *x, const void *y)
{
	json_object *a = *(json_object *const *)x, *b = *(json_object *const *)y;
	uint64_t sa = jsonr_u64_or(a, "samples", 0), sb = jsonr_u64_or(b, "samples", 0);
	uint64_t pa = jsonr_u64_or(a, "pid", 0), pb = jsonr_u64_or(b, "pid", 0);
	json_object *ca, *cb;

	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (pa != pb)
		return pa < pb ? -1 : 1;
	json_object_object_get_ex(a, "comm", &ca);
	json_object_object_get_ex(b, "comm", &cb);
	return strcmp(json_object_get_string(ca) ?: "", json_object_get_string(cb) ?: "");
}

static void add_line(json_object *arr, const char *frames, uint64_t count)
{
	char *line;

	if (asprintf(&line, "%s %llu", frames, (unsigned long long)count) < 0)
		return;
	json_object_array_add(arr, json_object_new_string(line));
	free(line);
}

/*
 * "stacks": each distinct stack once, summed over its tasks, most samples first: FlameGraph's
 * folded lines, as they were before stacks had tasks.
 */
static void stacks_to_json(const struct sample_site_info *si, json_object *arr)
{
	struct counter_map sum = { 0 };
	struct sample_stack *rows;
	size_t i, n = 0;

	for (i = 0; i < si->nr_stacks; i++) {
		struct counter_map_ent *e = counter_map_get(&sum, si->stacks[i].frames);

		if (e)
			e->value += si->stacks[i].count;
	}
	rows = calloc(sum.nr ?: 1, sizeof(*rows));
	for (i = 0; rows && i < sum.cap; i++)
		if (sum.ents[i].key)
			rows[n++] = (struct sample_stack){ .frames = sum.ents[i].key,
							   .count = sum.ents[i].value };
	if (n)
		qsort(rows, n, sizeof(*rows), sample_stack_cmp);
	for (i = 0; i < n; i++)
		add_line(arr, rows[i].frames, rows[i].count);
	free(rows);
	counter_map_free(&sum);
}

/* Stacks ordered by task (pid, comm), then as a profile keeps them: one run per task. */
static int by_task(const void *x, const void *y)
{
	const struct sample_stack *a = *(struct sample_stack *const *)x,
				  *b = *(struct sample_stack *const *)y;

	return task_cmp(a, b) ?: sample_stack_cmp(a, b);
}

/*
 * "tasks": who the samples were taken in, [{pid, comm, samples, stacks}], most samples first,
 * each with its own folded stacks (docs/profile-format.md#who-copies). Absent when no stack
 * has a task. A small function of its own, so that another writer can carry it as it is.
 */
static void tasks_to_json(const struct sample_site_info *si, json_object *site)
{
	const struct sample_stack **v = calloc(si->nr_stacks ?: 1, sizeof(*v));
	json_object *tasks, *arr = NULL, *t = NULL;
	size_t i, n = 0, first = 0;
	uint64_t samples = 0;

	for (i = 0; v && i < si->nr_stacks; i++)
		if (si->stacks[i].has_task)
			v[n++] = &si->stacks[i];
	if (!n) {
		free(v);
		return;
	}
	qsort(v, n, sizeof(*v), by_task);
	tasks = json_object_new_array();
	for (i = 0; i <= n; i++) {
		if (i < n && i > first && !task_cmp(v[i], v[first])) {
			add_line(arr, v[i]->frames, v[i]->count);
			samples += v[i]->count;
			continue;
		}
		if (t) {
			json_object_object_add(t, "samples", json_object_new_uint64(samples));
			json_object_object_add(t, "stacks", arr);
			json_object_array_add(tasks, t);
		}
		if (i == n)
			break;
		first = i;
		t = json_object_new_object();
		json_object_object_add(t, "pid", json_object_new_uint64(v[i]->pid));
		jsonw_put_str(t, "comm", v[i]->comm ?: "");
		arr = json_object_new_array();
		add_line(arr, v[i]->frames, v[i]->count);
		samples = v[i]->count;
	}
	free(v);
	/* Most samples first, then by pid and comm: the order readers see. */
	json_object_array_sort(tasks, task_json_cmp);
	json_object_object_add(site, "tasks", tasks);
}

void sample_site_to_json(const struct sample_site_info *si, json_object *site)
{
	json_object *q, *stacks;
	int k;

	if (!si)
		return;
	if (si->leaf)
		json_object_object_add(site, "leaf", json_object_new_string(si->leaf));
	/* The buckets count samples, i.e. time, not calls: a reader must not mix them up. */
	json_object_object_add(site, "weight", json_object_new_string("time"));
	q = json_object_new_object();
	for (k = 2; k >= 0; k--)
		json_object_object_add(q, quality_keys[k], json_object_new_uint64(si->quality[k]));
	json_object_object_add(site, "length_quality", q);
	stacks = json_object_new_array();
	stacks_to_json(si, stacks);
	json_object_object_add(site, "stacks", stacks);
	tasks_to_json(si, site);
}

void sample_meta_to_json(const struct sample_meta *sm, json_object *meta)
{
	if (!sm)
		return;
	if (sm->event)
		json_object_object_add(meta, "event", json_object_new_string(sm->event));
	json_object_object_add(meta, "sample_hz", json_object_new_uint64(sm->hz));
	json_object_object_add(meta, "total_samples", json_object_new_uint64(sm->total));
	json_object_object_add(meta, "idle_samples", json_object_new_uint64(sm->idle));
	json_object_object_add(meta, "lost_samples", json_object_new_uint64(sm->lost));
	if (sm->malformed)
		json_object_object_add(meta, "malformed_lines",
				       json_object_new_uint64(sm->malformed));
	if (sm->fallback)
		json_object_object_add(meta, "sample_fallback",
				       json_object_new_string(sm->fallback));
	if (sm->lengths_note)
		json_object_object_add(meta, "sample_lengths_note",
				       json_object_new_string(sm->lengths_note));
	if (sm->scope) {
		json_object_object_add(meta, "sample_scope", json_object_new_string(sm->scope));
		json_object_object_add(meta, "outside_scope_samples",
				       json_object_new_uint64(sm->outside));
	}
}

/* "a;b;c 12", read by the one folded-line parser (flamegraph/folded.c); counts are integers. */
static int stack_parse(const char *line, struct sample_stack *st)
{
	struct folded_line l;
	const char *why;

	if (folded_parse_line(line, strlen(line), &l, &why) != 1 || l.count != floor(l.count) ||
	    l.count >= 0x1p64)
		return -EINVAL;
	st->count = (uint64_t)l.count;
	st->frames = strndup(l.stack, l.stack_len);
	return st->frames ? 0 : -ENOMEM;
}

/* Line @i of a "stacks" array into @st (frames allocated): 0, or -EINVAL if it is no stack. */
static int stack_at(json_object *arr, size_t i, struct sample_stack *st)
{
	json_object *line = json_object_array_get_idx(arr, i);

	*st = (struct sample_stack){ 0 };
	if (!json_object_is_type(line, json_type_string))
		return -EINVAL;
	return stack_parse(json_object_get_string(line), st);
}

/* Appends a stack; 0 or -ENOMEM. @st's strings move into the site. */
static int push_stack(struct sample_site_info *si, size_t *cap, const struct sample_stack *st)
{
	if (si->nr_stacks == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		struct sample_stack *n = realloc(si->stacks, c * sizeof(*n));

		if (!n)
			return -ENOMEM;
		si->stacks = n;
		*cap = c;
	}
	si->stacks[si->nr_stacks++] = *st;
	return 0;
}

/*
 * "tasks": each task's stacks, with its pid and comm. A malformed task or line is skipped
 * (jsonr.h's leniency), as a malformed "stacks" line is.
 */
static int tasks_from_json(json_object *site, struct sample_site_info *si)
{
	json_object *tasks, *t, *arr;
	size_t i, j, cap = si->nr_stacks;
	uint64_t pid;

	if (!json_object_object_get_ex(site, "tasks", &tasks) ||
	    !json_object_is_type(tasks, json_type_array))
		return 0;
	for (i = 0; i < json_object_array_length(tasks); i++) {
		t = json_object_array_get_idx(tasks, i);
		if (!json_object_is_type(t, json_type_object) || jsonr_u64(t, "pid", &pid) ||
		    pid > UINT32_MAX || !json_object_object_get_ex(t, "stacks", &arr) ||
		    !json_object_is_type(arr, json_type_array))
			continue;
		for (j = 0; j < json_object_array_length(arr); j++) {
			struct sample_stack st;

			if (stack_at(arr, j, &st))
				continue;
			st.has_task = true;
			st.pid = (uint32_t)pid;
			st.comm = jsonr_str(t, "comm");
			if (!st.comm)
				st.comm = strdup("");
			if (!st.comm || push_stack(si, &cap, &st)) {
				free(st.frames);
				free(st.comm);
				return -ENOMEM;
			}
		}
	}
	return 0;
}

/* The sum of "stacks" per stack text. */
static int stack_sums(json_object *arr, struct counter_map *sums)
{
	size_t i;

	for (i = 0; i < json_object_array_length(arr); i++) {
		struct sample_stack st;
		struct counter_map_ent *e;

		if (stack_at(arr, i, &st))
			continue;
		e = counter_map_get(sums, st.frames);
		free(st.frames);
		if (!e)
			return -ENOMEM;
		e->value += st.count;
	}
	return 0;
}

/*
 * The tasks split the stacks: a stack's samples over its tasks can be no more than "stacks"
 * holds for it. Tasks that claim more (or a stack "stacks" lacks) are not believed: they are
 * dropped, and the stacks read without tasks. 0 or -ENOMEM.
 */
static int tasks_check(json_object *arr, struct sample_site_info *si)
{
	struct counter_map sums = { 0 }, tasked = { 0 };
	bool bad = false;
	size_t i;
	int err = stack_sums(arr, &sums);

	for (i = 0; !err && !bad && i < si->nr_stacks; i++) {
		struct counter_map_ent *e = counter_map_get(&tasked, si->stacks[i].frames);
		struct counter_map_ent *s = counter_map_find(&sums, si->stacks[i].frames);

		if (!e) {
			err = -ENOMEM;
			break;
		}
		e->value += si->stacks[i].count;
		bad = !s || e->value > s->value || e->value < si->stacks[i].count;
	}
	for (i = 0; !err && bad && i < si->nr_stacks; i++) {
		free(si->stacks[i].frames);
		free(si->stacks[i].comm);
	}
	if (bad)
		si->nr_stacks = 0;
	counter_map_free(&sums);
	counter_map_free(&tasked);
	return err;
}

/*
 * "stacks": every stack summed over its tasks. What the tasks do not account for (all of it
 * in profiles before tasks, or in a merge with one) is a stack without a task.
 */
static int untasked_from_json(json_object *arr, struct sample_site_info *si)
{
	struct counter_map tasked = { 0 };
	size_t i, cap;
	int err = tasks_check(arr, si);

	cap = si->nr_stacks;
	for (i = 0; !err && i < si->nr_stacks; i++) {
		struct counter_map_ent *e = counter_map_get(&tasked, si->stacks[i].frames);

		if (!e) {
			counter_map_free(&tasked);
			return -ENOMEM;
		}
		e->value += si->stacks[i].count;
	}
	for (i = 0; !err && i < json_object_array_length(arr); i++) {
		struct sample_stack st;
		struct counter_map_ent *e;

		if (stack_at(arr, i, &st))
			continue;
		e = counter_map_find(&tasked, st.frames);
		if (e) {
			uint64_t in_tasks = e->value < st.count ? e->value : st.count;

			st.count -= in_tasks;
			e->value -= in_tasks;
		}
		if (!st.count) {
			free(st.frames);
			continue;
		}
		err = push_stack(si, &cap, &st);
		if (err)
			free(st.frames);
	}
	counter_map_free(&tasked);
	return err;
}

struct sample_site_info *sample_site_from_json(json_object *site)
{
	struct sample_site_info *si;
	json_object *v, *empty;
	int k;

	if (!json_object_object_get_ex(site, "leaf", &v) &&
	    !json_object_object_get_ex(site, "length_quality", &v))
		return NULL;
	si = calloc(1, sizeof(*si));
	if (!si)
		return NULL;
	si->leaf = jsonr_str(site, "leaf");
	if (json_object_object_get_ex(site, "length_quality", &v))
		for (k = 0; k < 3; k++)
			si->quality[k] = jsonr_u64_or(v, quality_keys[k], 0);
	/* Without "stacks" nothing vouches for the tasks: an empty array drops them. */
	if (!json_object_object_get_ex(site, "stacks", &v) ||
	    !json_object_is_type(v, json_type_array))
		v = NULL;
	empty = v ? NULL : json_object_new_array();
	if (tasks_from_json(site, si) || untasked_from_json(v ?: empty, si)) {
		json_object_put(empty);
		sample_site_info_free(si);
		return NULL;
	}
	json_object_put(empty);
	if (si->nr_stacks)
		qsort(si->stacks, si->nr_stacks, sizeof(*si->stacks), sample_stack_cmp);
	return si;
}

struct sample_meta *sample_meta_from_json(json_object *meta)
{
	struct sample_meta *sm;
	json_object *v;

	if (!json_object_object_get_ex(meta, "total_samples", &v))
		return NULL;
	sm = calloc(1, sizeof(*sm));
	if (!sm)
		return NULL;
	sm->event = jsonr_str(meta, "event");
	sm->hz = (uint32_t)jsonr_u64_or(meta, "sample_hz", 0);
	sm->total = jsonr_u64_or(meta, "total_samples", 0);
	sm->idle = jsonr_u64_or(meta, "idle_samples", 0);
	sm->lost = jsonr_u64_or(meta, "lost_samples", 0);
	sm->malformed = jsonr_u64_or(meta, "malformed_lines", 0);
	sm->fallback = jsonr_str(meta, "sample_fallback");
	sm->scope = jsonr_str(meta, "sample_scope");
	sm->lengths_note = jsonr_str(meta, "sample_lengths_note");
	sm->outside = jsonr_u64_or(meta, "outside_scope_samples", 0);
	return sm;
}
