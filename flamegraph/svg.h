/* SPDX-License-Identifier: GPL-2.0 */
/* svg.h: a frame tree laid out and written as a self-contained interactive SVG flame graph */
#ifndef CP_FG_SVG_H
#define CP_FG_SVG_H

#include <stdbool.h>
#include <stdio.h>
#include "tree.h"

#define FG_WIDTH 1200	   /* default image width, px */
#define FG_PAD 10	   /* left and right margin, px */
#define FG_FRAME_H 16	   /* one stack level, px (the rectangle is 1 px less) */
#define FG_FONT_SIZE 12	   /* px */
#define FG_CHAR_WIDTH 0.59 /* average glyph width, in font sizes: how many characters fit */
#define FG_MIN_WIDTH 0.1   /* frames narrower than this (px) are left out, with their children */
#define FG_TOP 60	   /* title, subtitle and buttons, px */
#define FG_BOTTOM 36	   /* the details line, px */
#define FG_LEGEND 22	   /* a legend's line (the differential view: one; threshold: two), px */
/*
 * The threshold view's colour scale is fixed: a frame T makes 25% cheaper is full green, 25%
 * dearer full red, whatever the data, so that a graph of small changes looks pale.
 */
#define FG_DELTA_FULL 0.25

/* One frame's rectangle: x and w in px; depth 0 is the root, drawn at the bottom. */
struct fg_rect {
	const struct fg_node *node;
	unsigned depth;
	double x, w;
};

/*
 * Lays out @t in an image @width px wide: every frame's width is its weight over the root's
 * times (@width - 2 FG_PAD), children left-aligned on their parent in their sorted order, a
 * frame narrower than FG_MIN_WIDTH left out with its children (*@omitted counts them). Rects
 * come parents first (depth-first), as drawn. 0, -EINVAL for an empty tree, or -ENOMEM.
 */
int fg_layout(const struct fg_tree *t, double width, struct fg_rect **out, size_t *nr,
	      size_t *omitted);

/*
 * The label that fits a frame @w px wide into @buf: @name whole, or its first characters
 * (whole UTF-8 characters) and "..", or "" when fewer than three characters fit. Not escaped:
 * escaping comes after truncation, so an entity is never cut.
 */
void fg_label_fit(const char *name, double w, char *buf, size_t len);

/* @ns in ms to three significant digits, never in scientific notation ("0.0248", "312"). */
void fg_format_ms(double ns, char *buf, size_t len);

struct fg_svg_opts {
	const char *title;
	const char *subtitle; /* a second line under the title, or NULL */
	const char *unit;     /* what a weight counts: "samples", "calls", "bytes", "ns" */
	double width;	      /* px; 0: FG_WIDTH */
	bool delta; /* threshold view: colour by each frame's measured change (fg_node.meas, full
		       at FG_DELTA_FULL, hatched where not measured), with a legend and the whole
		       mix's measured figure, tooltips with the modelled costs beside */
	const char *at_name; /* the threshold view's policy, "T=1024" */
	const char *note;    /* threshold view: which corrections the numbers include, or NULL */
	bool diff;	     /* differential view: weight is AFTER, today_ns BEFORE (scaled) */
	double diff_full;    /* the |after / before - 1| drawn in full colour (with a legend) */
};

/*
 * The flame graph of @t; *@drawn (if not NULL) gets the number of frames drawn, *@omitted those
 * left out as too narrow. 0, or -EINVAL for an empty tree, -ENOMEM.
 */
int fg_svg_write(FILE *f, const struct fg_tree *t, const struct fg_svg_opts *o, size_t *drawn,
		 size_t *omitted);
/* A valid SVG that shows @o's title and says what went wrong (@msg), with no frames. */
void fg_svg_write_error(FILE *f, const struct fg_svg_opts *o, const char *msg);

#endif
