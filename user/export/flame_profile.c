// SPDX-License-Identifier: GPL-2.0
/* flame_profile.c: which frames a profile gives a flame graph, and their weights */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate/estimate_family.h"
#include "flame_profile.h"
#include "folded.h"

static const char *const weight_names[] = { "samples", "calls", "bytes", "time" };

const char *flame_weight_name(enum flame_weight w)
{
	return weight_names[w <= FLAME_TIME ? w : FLAME_CALLS];
}

int flame_weight_parse(const char *s)
{
	int w;

	for (w = 0; w <= FLAME_TIME; w++)
		if (!strcmp(s, weight_names[w]))
			return w;
	return -1;
}

enum flame_weight flame_default_weight(const struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nr_sites; i++)
		if (!p->sites[i].sample)
			return FLAME_CALLS;
	return p->nr_sites ? FLAME_SAMPLES : FLAME_CALLS;
}

void flame_bucket_frame(uint32_t b, char *buf, size_t len)
{
	unsigned long long lo = hist_bucket_lo(b), hi = hist_bucket_hi(b);

	if (b == CP_OVERFLOW_BUCKET)
		snprintf(buf, len, ">= %llu B", lo);
	else if (hi == lo + 1)
		snprintf(buf, len, "%llu B", lo);
	else
		snprintf(buf, len, "%llu-%llu B", lo, hi - 1);
}

void flame_slot_frame(uint32_t b, const struct hist_slot *slot, char *buf, size_t len)
{
	unsigned long long lo = hist_bucket_lo(b), hi = hist_bucket_hi(b);

	/* Every length is >= lo (< hi): a sum of count * lo (or hi - 1) means all of them are. */
	if (slot->count && b != CP_OVERFLOW_BUCKET && slot->bytes / slot->count == lo &&
	    slot->bytes % slot->count == 0)
		snprintf(buf, len, "%llu B", lo);
	else if (slot->count && b != CP_OVERFLOW_BUCKET && slot->bytes / slot->count == hi - 1 &&
		 slot->bytes % slot->count == 0)
		snprintf(buf, len, "%llu B", hi - 1);
	else
		flame_bucket_frame(b, buf, len);
}

/*
 * The threshold view: which site row (estimate's, est_site_label()) the frames of @s's row for
 * caller @c (or its "(no caller)" row) belong to, as a mark; 0 outside the threshold view.
 */
static int row_mark(const struct profile_site *s, const struct profile_caller *c, bool no_caller,
		    const struct flame_opts *o)
{
	char *label;
	int k;

	if (o->weight != FLAME_TIME || o->costs->nr_pol < 2)
		return 0;
	label = est_site_label(s, c, no_caller);
	if (!label)
		return -ENOMEM;
	k = flame_costs_site_mark(o->costs, label);
	free(label);
	return k;
}

/* One frame per non-empty bucket of @slots on @parent (a site or a caller of site @s). */
static int add_buckets(struct fg_tree *t, struct fg_node *parent, const struct profile_site *s,
		       const struct hist_slot *slots, const struct flame_opts *o, int mark)
{
	double w, calls, today = 0, at = 0;
	struct fg_node *leaf;
	char name[64];
	uint32_t b;
	int err;

	if (mark < 0)
		return mark;
	for (b = 0; b < CP_NBUCKETS; b++) {
		if (!slots[b].count)
			continue;
		calls = (double)slots[b].count;
		if (o->weight == FLAME_TIME) {
			err = flame_costs_bucket(o->costs, s, &slots[b], b, &calls, &today, &at);
			if (err)
				return err;
			w = today;
		} else {
			w = o->weight == FLAME_BYTES ? (double)slots[b].bytes : calls;
		}
		if (!(w > 0))
			continue;
		flame_slot_frame(b, &slots[b], name, sizeof(name));
		/* Keyed by bucket, so lengths are drawn in length order, not by name. */
		leaf = fg_tree_child(t, parent, name, strlen(name), b + 1, FG_KIND_LENGTH);
		if (!leaf)
			return -ENOMEM;
		fg_tree_add(leaf, w, today, at, calls);
		/* The threshold view colours a frame by the one site row its calls are, if one. */
		if (mark > 0)
			fg_tree_mark(leaf, mark);
	}
	return 0;
}

static struct fg_node *named_child(struct fg_tree *t, struct fg_node *parent, const char *target,
				   const char *symbol, uint64_t offset, const char *label)
{
	const char *slash = target ? strrchr(target, '/') : NULL;
	char name[512];

	snprintf(name, sizeof(name), "%s%s%s+0x%llx%s%s%s", slash ? slash + 1 : target ?: "",
		 target ? ":" : "", symbol ?: "?", (unsigned long long)offset, label ? " [" : "",
		 label ?: "", label ? "]" : "");
	return fg_tree_child(t, parent, name, strlen(name), 0, FG_KIND_FRAME);
}

/* The site's own frame: "target:symbol+0xOFF [label]" on @parent. */
static struct fg_node *site_frame(struct fg_tree *t, struct fg_node *parent,
				  const struct profile_site *s)
{
	return named_child(t, parent, s->target ?: "?", s->symbol, s->offset, s->label);
}

/* How many bytes of frames (up to a ';') all of @si's stacks share below their leaves. */
static size_t shared_prefix(const struct sample_site_info *si)
{
	const char *first = si->stacks[0].frames, *semi = strrchr(first, ';');
	size_t n = semi ? (size_t)(semi - first) : 0, i, k, m;

	for (i = 1; i < si->nr_stacks && n; i++) {
		const char *f = si->stacks[i].frames;

		semi = strrchr(f, ';');
		m = semi ? (size_t)(semi - f) : 0;
		if (m > n)
			m = n;
		for (k = 0; k < m && f[k] == first[k]; k++)
			;
		/* Whole frames: back to a ';' in both (the one before a leaf counts). */
		while (k && !(first[k] == ';' && f[k] == ';'))
			k--;
		n = k;
	}
	return n;
}

/*
 * A sampled site's frames from the root: the frames every one of its stacks shares (the
 * profile keeps lengths per site, not per stack), the site in place of its own function, then
 * its leaf. @parent gets the leaf, the frame the lengths go on.
 */
static int add_sampled_path(struct fg_tree *t, const struct profile_site *s,
			    struct fg_node **parent)
{
	const struct sample_site_info *si = s->sample;
	const char *p, *semi, *stop;
	struct fg_node *n = &t->root;
	size_t len = si->nr_stacks ? shared_prefix(si) : 0, flen;

	p = len ? si->stacks[0].frames : "";
	stop = p + len;
	while (p < stop) {
		semi = memchr(p, ';', (size_t)(stop - p));
		flen = semi ? (size_t)(semi - p) : (size_t)(stop - p);
		/* The site's own function is drawn as the site, with its offset. */
		if (!(p + flen == stop && s->symbol && strlen(s->symbol) == flen &&
		      !memcmp(p, s->symbol, flen))) {
			n = fg_tree_child(t, n, p, flen, 0, FG_KIND_FRAME);
			if (!n)
				return -ENOMEM;
		}
		p += flen + (semi ? 1 : 0);
	}
	n = site_frame(t, n, s);
	if (n && si->leaf)
		n = fg_tree_child(t, n, si->leaf, strlen(si->leaf), 0, FG_KIND_FRAME);
	*parent = n;
	return n ? 0 : -ENOMEM;
}

/*
 * As a stack reads, root first: an entry site's callers (that counted them; "(no caller)" for
 * calls none took) > the site > its lengths; a sampled site's shared stack > the site > its
 * leaf > its lengths; any other site > its lengths. The rows add up to the site.
 */
static int add_site(struct fg_tree *t, const struct profile_site *s, const struct flame_opts *o)
{
	struct hist_slot rest[CP_NBUCKETS], dense[CP_NBUCKETS];
	struct fg_node *site, *caller;
	size_t i;
	int err;

	if (s->sample) {
		sparse_hist_dense(&s->buckets, dense);
		err = add_sampled_path(t, s, &site);
		return err ?: add_buckets(t, site, s, dense, o, row_mark(s, NULL, false, o));
	}
	if (!s->nr_callers) {
		sparse_hist_dense(&s->buckets, dense);
		site = site_frame(t, &t->root, s);
		return site ? add_buckets(t, site, s, dense, o, row_mark(s, NULL, false, o))
			    : -ENOMEM;
	}
	for (i = 0; i < s->nr_callers; i++) {
		const struct profile_caller *c = &s->callers[i];
		bool kernel = !c->target || !strcmp(c->target, "vmlinux");

		/* As estimate names them: "vfs_read+0xe7", or "module:func+0x10". */
		caller = named_child(t, &t->root, kernel ? NULL : c->target, c->symbol, c->offset,
				     NULL);
		site = caller ? site_frame(t, caller, s) : NULL;
		if (!site)
			return -ENOMEM;
		sparse_hist_dense(&c->buckets, dense);
		err = add_buckets(t, site, s, dense, o, row_mark(s, c, false, o));
		if (err)
			return err;
	}
	if (!profile_site_no_caller(s, rest))
		return 0;
	caller = fg_tree_child(t, &t->root, "(no caller)", strlen("(no caller)"), 0, FG_KIND_FRAME);
	site = caller ? site_frame(t, caller, s) : NULL;
	return site ? add_buckets(t, site, s, rest, o, row_mark(s, NULL, true, o)) : -ENOMEM;
}

char *flame_stack_text(const struct sample_stack *st, bool no_comm)
{
	const char *comm = st->comm && *st->comm ? st->comm : "[unknown]";
	size_t i, n = strlen(comm);
	char *s;

	if (no_comm || !st->has_task)
		return strdup(st->frames);
	if (asprintf(&s, "%s;%s", comm, st->frames) < 0)
		return NULL;
	/* A comm is any bytes but NUL: a ';' in it would split the frame. */
	for (i = 0; i < n; i++)
		if (s[i] == ';')
			s[i] = ':';
	return s;
}

static int add_stacks(struct fg_tree *t, const struct sample_site_info *si, bool no_comm)
{
	size_t i;
	int err;

	for (i = 0; i < si->nr_stacks; i++) {
		char *text = flame_stack_text(&si->stacks[i], no_comm);
		struct folded_line l = { text, text ? strlen(text) : 0,
					 (double)si->stacks[i].count };

		if (!text)
			return -ENOMEM;
		err = folded_add(t, &l);
		free(text);
		if (err)
			return err;
	}
	return 0;
}

int flame_from_profile(const struct profile *p, const struct flame_opts *o, struct fg_tree *t,
		       struct flame_stats *st)
{
	size_t i;
	int err = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; !err && i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];

		if (o->family >= 0 && (int)est_site_family(s) != o->family)
			continue;
		if ((o->weight == FLAME_SAMPLES) != (s->sample != NULL) &&
		    o->weight != FLAME_TIME) {
			st->skipped++;
			continue;
		}
		if (o->weight == FLAME_SAMPLES && !s->sample->nr_stacks) {
			st->no_stack++;
			continue;
		}
		st->sites++;
		err = o->weight == FLAME_SAMPLES ? add_stacks(t, s->sample, o->no_comm)
						 : add_site(t, s, o);
	}
	if (!err && o->weight == FLAME_TIME && o->costs->nr_pol > 1)
		flame_costs_paint(o->costs, t);
	return err;
}
