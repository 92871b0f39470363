/* SPDX-License-Identifier: GPL-2.0 */
/* tree.h: a flame graph's frames: a tree of named nodes with inclusive weights, kept sorted */
#ifndef CP_FG_TREE_H
#define CP_FG_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a frame is coloured outside the threshold view (palette.h). */
enum fg_kind { FG_KIND_FRAME, FG_KIND_LENGTH };

/*
 * The threshold view's colour: what a paired measurement of the frame's mix says (the export
 * layer sets it), never a per-length model. NONE: not measured (hatched grey, no verdict).
 */
enum fg_meas { FG_MEAS_NONE, FG_MEAS_SAVES, FG_MEAS_COSTS, FG_MEAS_SAME };

/*
 * One frame. @weight is inclusive: the node's own weight plus its children's, as a flame
 * graph draws it. @today_ns and @at_ns (the threshold view) are summed the same way.
 */
struct fg_node {
	char *name;
	uint64_t key; /* siblings are sorted by key, then by name (0: by name only) */
	enum fg_kind kind;
	double weight;	 /* samples, calls, bytes or ns */
	double today_ns; /* threshold view: time of the frame's calls today ... */
	double at_ns;	 /* ... and at the threshold */
	double calls;	 /* threshold view: calls (converted from samples for sampled sites) */
	/* threshold view: which measured mix the frame's calls belong to: 0 none yet, k > 0 the
	 * k-th (fg_tree_mark()), -1 several; and what its measurement says, in percent */
	int mark;
	enum fg_meas meas;
	double meas_pct, meas_lo, meas_hi;
	struct fg_node *parent;
	struct fg_node **children; /* sorted (key, name): the order frames are drawn in */
	size_t nr_children, cap;
};

struct fg_tree {
	struct fg_node root; /* "all" */
	size_t nr_nodes;     /* without the root */
};

/* An empty tree whose root frame is called @root_name; NULL on allocation failure. */
struct fg_tree *fg_tree_new(const char *root_name);
void fg_tree_free(struct fg_tree *t);

/*
 * The child of @parent called @name (@len bytes, not NUL-terminated) with sort key @key,
 * created with @kind if it does not exist; frames of the same name and key are one frame.
 * NULL on allocation failure.
 */
struct fg_node *fg_tree_child(struct fg_tree *t, struct fg_node *parent, const char *name,
			      size_t len, uint64_t key, enum fg_kind kind);

/* Adds @w (and @today, @at, @calls) to @leaf and to every frame below it down to the root. */
void fg_tree_add(struct fg_node *leaf, double w, double today, double at, double calls);

/* Marks @leaf, and every frame below it down to the root, as holding calls of mix @k (> 0). */
void fg_tree_mark(struct fg_node *leaf, int k);

/* Depth of the deepest frame (the root is depth 0). */
unsigned fg_tree_depth(const struct fg_tree *t);

#endif
