// SPDX-License-Identifier: GPL-2.0
/* profile_sample.c: JSON of the sampled-profile fields: leaf, length quality, stacks, meta */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "folded.h"
#include "lib/jsonr.h"
#include "profile_sample.h"

static const char *const quality_keys[3] = { "unknown", "approximate", "exact" };

void sample_site_info_free(struct sample_site_info *si)
{
	size_t i;

	if (!si)
		return;
	free(si->leaf);
	free(si->family);
	for (i = 0; i < si->nr_stacks; i++)
		free(si->stacks[i].frames);
	free(si->stacks);
	free(si);
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

void sample_site_to_json(const struct sample_site_info *si, json_object *site)
{
	json_object *q, *stacks;
	size_t i;
	int k;

	if (!si)
		return;
	if (si->leaf)
		json_object_object_add(site, "leaf", json_object_new_string(si->leaf));
	if (si->family)
		json_object_object_add(site, "family", json_object_new_string(si->family));
	/* The buckets count samples, i.e. time, not calls: a reader must not mix them up. */
	json_object_object_add(site, "weight", json_object_new_string("time"));
	q = json_object_new_object();
	for (k = 2; k >= 0; k--)
		json_object_object_add(q, quality_keys[k], json_object_new_uint64(si->quality[k]));
	json_object_object_add(site, "length_quality", q);
	stacks = json_object_new_array();
	for (i = 0; i < si->nr_stacks; i++) {
		char *line;

		if (asprintf(&line, "%s %llu", si->stacks[i].frames,
			     (unsigned long long)si->stacks[i].count) < 0)
			continue;
		json_object_array_add(stacks, json_object_new_string(line));
		free(line);
	}
	json_object_object_add(site, "stacks", stacks);
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

struct sample_site_info *sample_site_from_json(json_object *site)
{
	struct sample_site_info *si;
	json_object *v;
	size_t i, n;
	int k;

	if (!json_object_object_get_ex(site, "leaf", &v) &&
	    !json_object_object_get_ex(site, "length_quality", &v))
		return NULL;
	si = calloc(1, sizeof(*si));
	if (!si)
		return NULL;
	si->leaf = jsonr_str(site, "leaf");
	si->family = jsonr_str(site, "family");
	if (json_object_object_get_ex(site, "length_quality", &v))
		for (k = 0; k < 3; k++)
			si->quality[k] = jsonr_u64_or(v, quality_keys[k], 0);
	if (!json_object_object_get_ex(site, "stacks", &v) ||
	    !json_object_is_type(v, json_type_array))
		return si;
	n = json_object_array_length(v);
	si->stacks = calloc(n ? n : 1, sizeof(*si->stacks));
	for (i = 0; si->stacks && i < n; i++) {
		json_object *line = json_object_array_get_idx(v, i);

		if (json_object_is_type(line, json_type_string) &&
		    !stack_parse(json_object_get_string(line), &si->stacks[si->nr_stacks]))
			si->nr_stacks++;
	}
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
