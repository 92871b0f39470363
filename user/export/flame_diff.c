// SPDX-License-Identifier: GPL-2.0
/* flame_diff.c: two profiles' frames in one tree: AFTER's weight, BEFORE's (scaled) beside it */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "flame_diff.h"

/* Adds @w of side @k at @leaf: AFTER's to the weight, BEFORE's (scaled) to today_ns. */
static void put(struct fg_node *leaf, int k, double w, double scale)
{
	if (k)
		fg_tree_add(leaf, w, 0, 0, 0);
	else
		fg_tree_add(leaf, 0, w * scale, 0, 0);
}

static int add_stack(struct fg_tree *t, const char *frames, double w, int k, double scale)
{
	struct fg_node *n = &t->root;
	const char *p = frames, *semi;

	while (*p) {
		semi = strchr(p, ';');
		n = fg_tree_child(t, n, p, semi ? (size_t)(semi - p) : strlen(p), 0, FG_KIND_FRAME);
		if (!n)
			return -ENOMEM;
		if (!semi)
			break;
		p = semi + 1;
	}
	put(n, k, w, scale);
	return 0;
}

static int add_lengths(struct fg_tree *t, struct fg_node *parent, const struct hist_slot *slots,
		       enum flame_weight w, int k, double scale)
{
	struct fg_node *leaf;
	char name[64];
	uint32_t b;

	for (b = 0; b < CP_NBUCKETS; b++) {
		if (!slots[b].count)
			continue;
		flame_bucket_frame(b, name, sizeof(name));
		leaf = fg_tree_child(t, parent, name, strlen(name), b + 1, FG_KIND_LENGTH);
		if (!leaf)
			return -ENOMEM;
		put(leaf, k, w == FLAME_BYTES ? (double)slots[b].bytes : (double)slots[b].count,
		    scale);
	}
	return 0;
}

static int add_site(struct fg_tree *t, struct fg_node *site, const struct profile_site *s,
		    enum flame_weight w, int k, double scale)
{
	struct hist_slot rest[CP_NBUCKETS], dense[CP_NBUCKETS];
	struct fg_node *c;
	char name[512];
	size_t i;
	int err;

	if (!s->nr_callers) {
		sparse_hist_dense(&s->buckets, dense);
		return add_lengths(t, site, dense, w, k, scale);
	}
	for (i = 0; i < s->nr_callers; i++) {
		const struct profile_caller *x = &s->callers[i];
		bool kernel = !x->target || !strcmp(x->target, "vmlinux");

		snprintf(name, sizeof(name), "%s%s%s+0x%llx", kernel ? "" : x->target,
			 kernel ? "" : ":", x->symbol ?: "?", (unsigned long long)x->offset);
		c = fg_tree_child(t, site, name, strlen(name), 0, FG_KIND_FRAME);
		if (!c)
			return -ENOMEM;
		sparse_hist_dense(&x->buckets, dense);
		err = add_lengths(t, c, dense, w, k, scale);
		if (err)
			return err;
	}
	if (!profile_site_no_caller(s, rest))
		return 0;
	c = fg_tree_child(t, site, "(no caller)", strlen("(no caller)"), 0, FG_KIND_FRAME);
	return c ? add_lengths(t, c, rest, w, k, scale) : -ENOMEM;
}

static void widest_change(const struct fg_node *n, double *full)
{
	size_t i;

	if (n->weight > 0 && n->today_ns > 0 && fabs(n->weight / n->today_ns - 1) > *full)
		*full = fabs(n->weight / n->today_ns - 1);
	for (i = 0; i < n->nr_children; i++)
		widest_change(n->children[i], full);
}

int flame_diff_build(const struct profile_diff *d, enum flame_weight w, bool no_comm,
		     struct fg_tree *t, double *full)
{
	double scale = d->exposure[1] / d->exposure[0];
	size_t i, j, m;
	int k, err = 0;

	for (i = 0; !err && i < d->nr_sites; i++) {
		const struct diff_row *r = &d->sites[i];
		struct fg_node *site = NULL;

		if (!d->sampled) {
			site = fg_tree_child(t, &t->root, r->name, strlen(r->name), 0,
					     FG_KIND_FRAME);
			if (!site)
				return -ENOMEM;
		}
		for (k = 0; k < 2 && !err; k++)
			for (j = 0; j < r->match->nr[k] && !err; j++) {
				const struct profile_site *s =
					&d->p[k]->sites[r->match->sites[k][j]];

				if (!d->sampled) {
					err = add_site(t, site, s, w, k, scale);
					continue;
				}
				for (m = 0; s->sample && m < s->sample->nr_stacks && !err; m++) {
					char *text =
						flame_stack_text(&s->sample->stacks[m], no_comm);

					err = text ? add_stack(t, text,
							       (double)s->sample->stacks[m].count,
							       k, scale)
						   : -ENOMEM;
					free(text);
				}
			}
	}
	*full = 0;
	widest_change(&t->root, full);
	if (!(*full > 0))
		*full = 1;
	return err;
}
