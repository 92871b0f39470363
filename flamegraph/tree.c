// SPDX-License-Identifier: GPL-2.0
/* tree.c: the frame tree: merging frames of the same name, sibling order, inclusive weights */
#include <stdlib.h>
#include <string.h>
#include "tree.h"

struct fg_tree *fg_tree_new(const char *root_name)
{
	struct fg_tree *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->root.name = strdup(root_name);
	if (!t->root.name) {
		free(t);
		return NULL;
	}
	return t;
}

/*
 * Frees @top's frames below it, without recursion (a folded stack may be 200,000 frames deep):
 * go down to a childless frame through the parent links, free it, climb back.
 */
static void node_free(struct fg_node *top)
{
	struct fg_node *n = top, *up;

	while (n) {
		if (n->nr_children) {
			n = n->children[--n->nr_children];
			continue;
		}
		free(n->children);
		free(n->name);
		if (n == top)
			break;
		up = n->parent;
		free(n);
		n = up;
	}
}

void fg_tree_free(struct fg_tree *t)
{
	if (!t)
		return;
	node_free(&t->root);
	free(t);
}

/* (key, name) order; @name has @len bytes and no NUL of its own. */
static int cmp_node(const struct fg_node *n, const char *name, size_t len, uint64_t key)
{
	size_t nl;
	int c;

	if (n->key != key)
		return n->key < key ? -1 : 1;
	nl = strlen(n->name);
	c = memcmp(n->name, name, nl < len ? nl : len);
	if (c)
		return c;
	return nl < len ? -1 : nl > len;
}

struct fg_node *fg_tree_child(struct fg_tree *t, struct fg_node *parent, const char *name,
			      size_t len, uint64_t key, enum fg_kind kind)
{
	size_t lo = 0, hi = parent->nr_children;
	struct fg_node *n;

	/* Children stay sorted, so a lookup is a binary search and the drawing order is fixed. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_node(parent->children[mid], name, len, key);

		if (!c)
			return parent->children[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (parent->nr_children == parent->cap) {
		size_t cap = parent->cap ? 2 * parent->cap : 4;
		struct fg_node **v = realloc(parent->children, cap * sizeof(*v));

		if (!v)
			return NULL;
		parent->children = v;
		parent->cap = cap;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->name = strndup(name, len);
	if (!n->name) {
		free(n);
		return NULL;
	}
	n->key = key;
	n->kind = kind;
	n->parent = parent;
	memmove(&parent->children[lo + 1], &parent->children[lo],
		(parent->nr_children - lo) * sizeof(*parent->children));
	parent->children[lo] = n;
	parent->nr_children++;
	t->nr_nodes++;
	return n;
}

void fg_tree_add(struct fg_node *leaf, double w, double today, double at, double calls)
{
	struct fg_node *n;

	for (n = leaf; n; n = n->parent) {
		n->weight += w;
		n->today_ns += today;
		n->at_ns += at;
		n->calls += calls;
	}
}

void fg_tree_mark(struct fg_node *leaf, int k)
{
	struct fg_node *n;

	for (n = leaf; n; n = n->parent)
		n->mark = !n->mark || n->mark == k ? k : -1;
}

unsigned fg_tree_depth(const struct fg_tree *t)
{
	const struct fg_node *n = &t->root;
	unsigned d = 0, deepest = 0;
	size_t *next, cap = 64;

	/* Depth-first without recursion: next[d] is the next child to visit at depth d. */
	next = calloc(cap, sizeof(*next));
	if (!next)
		return 0;
	while (n) {
		if (d > deepest)
			deepest = d;
		if (next[d] < n->nr_children) {
			if (d + 1 == cap) {
				size_t *v = realloc(next, 2 * cap * sizeof(*v));

				if (!v)
					break;
				memset(v + cap, 0, cap * sizeof(*v));
				next = v;
				cap *= 2;
			}
			n = n->children[next[d]++];
			next[++d] = 0;
			continue;
		}
		n = d ? n->parent : NULL;
		if (d)
			d--;
	}
	free(next);
	return deepest;
}
