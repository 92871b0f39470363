// SPDX-License-Identifier: GPL-2.0
/* svg.c: flame graph layout (widths proportional to weights) and the SVG document around it */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "palette.h"
#include "lib/utf8.h"
#include "lib/xml_escape.h"
#include "svg.h"

/* The script (flamegraph/fg.js), built in by scripts/embed-fgjs.sh. */
extern const char fg_js[];

struct layout {
	struct fg_rect *v;
	size_t nr, cap, omitted;
	double scale; /* px per unit of weight */
};

/* Adds @n's rectangle; 1 if drawn, 0 if too narrow (its frames above are left out too). */
static int place_one(struct layout *L, const struct fg_node *n, unsigned depth, double x)
{
	double w = n->weight * L->scale;

	if (w < FG_MIN_WIDTH) {
		L->omitted++;
		return 0;
	}
	if (L->nr == L->cap) {
		size_t cap = L->cap ? 2 * L->cap : 64;
		struct fg_rect *v = realloc(L->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		L->v = v;
		L->cap = cap;
	}
	L->v[L->nr++] = (struct fg_rect){ n, depth, x, w };
	return 1;
}

/* A frame being laid out: its next child and where that child starts. */
struct place_frame {
	const struct fg_node *n;
	size_t next;
	double cx;
};

/*
 * Parents first, children left to right, as drawn; an explicit stack instead of recursion,
 * so that a 200,000-frame stack lays out like any other.
 */
static int place(struct layout *L, const struct fg_node *root, double x)
{
	const struct fg_node *n = root; /* the frame just drawn, whose children come next */
	struct place_frame *st = NULL, *f;
	size_t sp = 0, cap = 0;
	int r = place_one(L, n, 0, x);

	while (r > 0) {
		if (sp == cap) {
			size_t c = cap ? 2 * cap : 64;
			struct place_frame *v = realloc(st, c * sizeof(*v));

			if (!v) {
				r = -ENOMEM;
				break;
			}
			st = v;
			cap = c;
		}
		st[sp++] = (struct place_frame){ n, 0, x };
		r = 0;
		while (sp && !r) {
			f = &st[sp - 1];
			if (f->next == f->n->nr_children) {
				sp--;
				continue;
			}
			n = f->n->children[f->next++];
			x = f->cx;
			f->cx += n->weight * L->scale;
			r = place_one(L, n, (unsigned)sp, x);
		}
	}
	free(st);
	return r < 0 ? r : 0;
}

int fg_layout(const struct fg_tree *t, double width, struct fg_rect **out, size_t *nr,
	      size_t *omitted)
{
	struct layout L = { 0 };
	int err;

	if (!(t->root.weight > 0) || !isfinite(t->root.weight))
		return -EINVAL;
	L.scale = (width - 2 * FG_PAD) / t->root.weight;
	err = place(&L, &t->root, FG_PAD);
	if (err) {
		free(L.v);
		return err;
	}
	*out = L.v;
	*nr = L.nr;
	if (omitted)
		*omitted = L.omitted;
	return 0;
}

static bool is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

void fg_label_fit(const char *name, double w, char *buf, size_t len)
{
	long fit = lround(floor((w - 6) / (FG_FONT_SIZE * FG_CHAR_WIDTH)));
	size_t chars = 0, i, cut = 0;

	if (len < 3) {
		if (len)
			buf[0] = '\0';
		return;
	}
	buf[0] = '\0';
	for (i = 0; name[i]; i++)
		if (!is_cont((unsigned char)name[i]))
			chars++;
	if (fit < 3)
		return;
	if ((long)chars <= fit) {
		cut = i;
	} else {
		/* The first fit - 2 characters, then "..". */
		for (chars = 0, cut = 0; name[cut]; cut++)
			if (!is_cont((unsigned char)name[cut]) && chars++ == (size_t)fit - 2)
				break;
	}
	while (cut + 3 > len || (cut && is_cont((unsigned char)name[cut])))
		cut--;
	memcpy(buf, name, cut);
	strcpy(buf + cut, name[cut] ? ".." : "");
}

static void escape_str(FILE *f, const char *s)
{
	xml_escape(f, s, strlen(s));
}

/* Integers as integers (counts, whole ns), anything else with two decimals. */
static void fmt_num(char *buf, size_t len, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/* The threshold view's "not measured": hatched grey, never a colour of the scale. */
#define FG_UNMEASURED_PATTERN                                                                      \
	"<pattern id=\"unmeasured\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "     \
	"patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" "                          \
	"fill=\"rgb(226,226,226)\"/><rect width=\"2\" height=\"6\" fill=\"rgb(190,190,190)\"/>"    \
	"</pattern>"

static void write_head(FILE *f, const struct fg_svg_opts *o, double width, double height)
{
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<!-- Flame graph written by copyprof flamegraph (docs/flamegraph.md). -->\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" data-pad=\"%d\" "
		"data-font-size=\"%d\" data-char-width=\"%g\">\n",
		width, height, width, height, FG_PAD, FG_FONT_SIZE, FG_CHAR_WIDTH);
	fprintf(f,
		"<defs><linearGradient id=\"bg\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
		"<stop offset=\"0%%\" stop-color=\"#f6f6f6\"/>"
		"<stop offset=\"100%%\" stop-color=\"#e6e6ee\"/></linearGradient>%s</defs>\n"
		"<style type=\"text/css\">\n"
		"text { font-family: Verdana, sans-serif; font-size: %dpx; fill: #000; }\n"
		"#title { font-size: 17px; text-anchor: middle; }\n"
		"#subtitle { text-anchor: middle; fill: #555; }\n"
		"#search, #matched { text-anchor: end; }\n"
		"#search, #unzoom { cursor: pointer; fill: #236; }\n"
		".f { cursor: pointer; }\n"
		".f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
		".f text { pointer-events: none; }\n"
		".hide { display: none; }\n"
		".parent { opacity: 0.55; }\n"
		".error { fill: #b00; }\n"
		"</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"url(#bg)\"/>\n",
		o->delta ? FG_UNMEASURED_PATTERN : "", FG_FONT_SIZE, width, height);
	fprintf(f, "<text id=\"title\" x=\"%.1f\" y=\"24\">", width / 2);
	escape_str(f, o->title ? o->title : "Flame graph");
	fputs("</text>\n", f);
	if (o->subtitle) {
		fprintf(f, "<text id=\"subtitle\" x=\"%.1f\" y=\"44\">", width / 2);
		escape_str(f, o->subtitle);
		fputs("</text>\n", f);
	}
}

/* The differential view's colour scale: blue (shrank) through grey to red (grew). */
static void write_legend(FILE *f, const struct fg_svg_opts *o, double width)
{
	const int steps = 9;
	double x0 = width / 2 - 135, y = FG_TOP - 6;
	struct fg_rgb c;
	int i;

	fprintf(f,
		"<g id=\"legend\"><text x=\"%.1f\" y=\"%.1f\" style=\"text-anchor: end\">"
		"shrank %.0f%%</text>\n",
		x0 - 6, y + 10, -100 * o->diff_full);
	for (i = 0; i < steps; i++) {
		c = fg_palette_change(o->diff_full * (2.0 * i / (steps - 1) - 1), o->diff_full);
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"30\" height=\"12\" "
			"fill=\"rgb(%u,%u,%u)\"/>\n",
			x0 + 30 * i, y, c.r, c.g, c.b);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">grew %+.0f%% (and new frames)</text></g>\n",
		x0 + 30 * steps + 6, y + 10, 100 * o->diff_full);
}

/* @ns in ms to three significant digits, never in scientific notation ("0.0248", "312"). */
void fg_format_ms(double ns, char *buf, size_t len)
{
	double ms = ns / 1e6, mag = fabs(ms);
	int dec = mag > 0 ? 2 - (int)floor(log10(mag)) : 0;

	if (dec < 0)
		dec = 0;
	if (dec > 9)
		dec = 9;
	snprintf(buf, len, "%.*f", dec, ms);
}

/* The threshold view's colour classes, as each frame's data-colour says (docs/flamegraph.md). */
static const char *const meas_class[] = { "not-measured", "saves", "costs", "no-difference" };

/*
 * A frame's colour in the threshold view, from the measurement of its mix alone: by its sign
 * and size where it saves or costs, neutral grey where its interval reaches 0 (no difference),
 * hatched grey where its mix was not measured.
 */
static const char *delta_fill(const struct fg_node *n, char *buf, size_t len)
{
	struct fg_rgb c;

	if (n->meas == FG_MEAS_NONE)
		return "url(#unmeasured)";
	c = fg_palette_delta(n->meas == FG_MEAS_SAME ? 0 : n->meas_pct / 100, FG_DELTA_FULL);
	snprintf(buf, len, "rgb(%u,%u,%u)", c.r, c.g, c.b);
	return buf;
}

/* "+12.34% (95% CI +10.01 .. +14.50), costs", or "not measured". */
static void write_meas(FILE *f, const struct fg_node *n)
{
	if (n->meas == FG_MEAS_NONE) {
		fputs("not measured", f);
		return;
	}
	fprintf(f, "measured %+.2f%% (95%% CI %+.2f .. %+.2f), %s", n->meas_pct, n->meas_lo,
		n->meas_hi, n->meas == FG_MEAS_SAME ? "no difference" : meas_class[n->meas]);
}

/*
 * The threshold view's colour scale, green (saves) through grey to red (costs), fixed at
 * FG_DELTA_FULL, the hatched "not measured", and the whole mix's measured figure.
 */
static void write_delta_legend(FILE *f, const struct fg_tree *t, const struct fg_svg_opts *o,
			       double width)
{
	const int steps = 9;
	double x0 = width / 2 - 135, y = FG_TOP - 6, today = t->root.today_ns;
	char a[32];
	struct fg_rgb c;
	int i;

	fprintf(f,
		"<g id=\"legend\"><text x=\"%.1f\" y=\"%.1f\" style=\"text-anchor: end\">"
		"saves %.0f%% or more</text>\n",
		x0 - 6, y + 10, 100 * FG_DELTA_FULL);
	for (i = 0; i < steps; i++) {
		c = fg_palette_delta(FG_DELTA_FULL * (2.0 * i / (steps - 1) - 1), FG_DELTA_FULL);
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"30\" height=\"12\" "
			"fill=\"rgb(%u,%u,%u)\"/>\n",
			x0 + 30 * i, y, c.r, c.g, c.b);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">costs %.0f%% or more</text>\n", x0 + 30 * steps + 6,
		y + 10, 100 * FG_DELTA_FULL);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"30\" height=\"12\" "
		"fill=\"url(#unmeasured)\"/>\n",
		x0 + 30 * steps + 150, y);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">not measured</text>\n", x0 + 30 * steps + 186,
		y + 10);
	fprintf(f,
		"<text id=\"scale\" x=\"%.1f\" y=\"%.1f\" style=\"text-anchor: middle\">"
		"a fixed scale, not the data's; colours from paired measurements of each frame's "
		"mix (the whole, or one site's); grey: no difference (the interval holds 0)"
		"</text>\n",
		width / 2, y + 10 + FG_LEGEND);
	fg_format_ms(today, a, sizeof(a));
	fprintf(f,
		"<text id=\"totals\" x=\"%.1f\" y=\"%.1f\" style=\"text-anchor: middle\">"
		"all: %s ms today; at ",
		width / 2, y + 10 + 2 * FG_LEGEND, a);
	escape_str(f, o->at_name ? o->at_name : "T");
	fputs(" the whole mix ", f);
	write_meas(f, &t->root);
	if (o->note) {
		fputs("; ", f);
		escape_str(f, o->note);
	}
	fputs("</text></g>\n", f);
}

static void write_title(FILE *f, const struct fg_node *n, const struct fg_node *root,
			const struct fg_svg_opts *o)
{
	char w[32], a[32], c[32];

	escape_str(f, n->name);
	fmt_num(w, sizeof(w), n->weight);
	if (o->diff) {
		fmt_num(a, sizeof(a), n->today_ns);
		fprintf(f, "\n%s ", w);
		escape_str(f, o->unit ? o->unit : "samples");
		fprintf(f, " after, %s before", a);
		if (n->today_ns > 0)
			fprintf(f, " (%+.2f%%)", 100 * (n->weight / n->today_ns - 1));
		else
			fputs(" (new)", f);
		fprintf(f, ", %.2f%% of after", 100 * n->weight / root->weight);
		return;
	}
	if (!o->delta) {
		fprintf(f, "\n%s ", w);
		escape_str(f, o->unit ? o->unit : "samples");
		fprintf(f, ", %.2f%%", 100 * n->weight / root->weight);
		return;
	}
	fmt_num(w, sizeof(w), round(n->today_ns));
	fmt_num(a, sizeof(a), round(n->at_ns));
	fmt_num(c, sizeof(c), round(n->calls));
	fprintf(f, "\n%s ns today; at ", w);
	escape_str(f, o->at_name ? o->at_name : "T");
	fputc(' ', f);
	write_meas(f, n);
	fprintf(f, "; modelled %s ns at ", a);
	escape_str(f, o->at_name ? o->at_name : "T");
	fprintf(f, " (%+.2f%%, no verdict); %.2f%% of today's time, %s calls",
		n->today_ns > 0 ? 100 * (n->at_ns / n->today_ns - 1) : 0.0,
		100 * n->weight / root->weight, c);
}

static void write_frame(FILE *f, const struct fg_rect *r, const struct fg_node *root,
			const struct fg_svg_opts *o, double y, char *label, size_t len)
{
	const struct fg_node *n = r->node;
	char buf[32];
	const char *fill = buf;
	struct fg_rgb rgb;

	if (o->diff)
		rgb = fg_palette_change(n->today_ns > 0 ? n->weight / n->today_ns - 1 : NAN,
					o->diff_full);
	else if (!o->delta)
		rgb = fg_palette_name(n->kind, n->name);
	if (o->delta)
		fill = delta_fill(n, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "rgb(%u,%u,%u)", rgb.r, rgb.g, rgb.b);
	if (o->delta)
		fprintf(f, "<g class=\"f\" data-colour=\"%s\"><title>", meas_class[n->meas]);
	else
		fputs("<g class=\"f\"><title>", f);
	write_title(f, n, root, o);
	fprintf(f,
		"</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" rx=\"2\" "
		"fill=\"%s\"/><text x=\"%.2f\" y=\"%.1f\">",
		r->x, y, r->w, FG_FRAME_H - 1, fill, r->x + 3, y + 11.5);
	fg_label_fit(n->name, r->w, label, len);
	escape_str(f, label);
	fputs("</text></g>\n", f);
}

int fg_svg_write(FILE *f, const struct fg_tree *t, const struct fg_svg_opts *o, size_t *drawn,
		 size_t *nr_omitted)
{
	double width = o->width > 0 ? o->width : FG_WIDTH, height, base;
	size_t nr, omitted, i, len = 0;
	struct fg_rect *rects;
	unsigned depth = 0;
	char *label;
	int err;

	err = fg_layout(t, width, &rects, &nr, &omitted);
	if (err)
		return err;
	for (i = 0; i < nr; i++) {
		if (rects[i].depth > depth)
			depth = rects[i].depth;
		if (strlen(rects[i].node->name) > len)
			len = strlen(rects[i].node->name);
	}
	label = malloc(len + 3);
	if (!label) {
		free(rects);
		return -ENOMEM;
	}
	height = FG_TOP +
		 (o->diff    ? FG_LEGEND
		  : o->delta ? 3 * FG_LEGEND
			     : 0) +
		 (depth + 1) * FG_FRAME_H + FG_BOTTOM;
	base = height - FG_BOTTOM;
	write_head(f, o, width, height);
	if (o->diff)
		write_legend(f, o, width);
	else if (o->delta)
		write_delta_legend(f, t, o, width);
	fprintf(f,
		"<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n"
		"<text id=\"search\" x=\"%.0f\" y=\"24\">Search</text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%.0f\"> </text>\n"
		"<text id=\"matched\" x=\"%.0f\" y=\"%.0f\"> </text>\n",
		FG_PAD, width - FG_PAD, FG_PAD, height - 12, width - FG_PAD, height - 12);
	if (omitted)
		fprintf(f, "<!-- %zu frame(s) narrower than %g px left out -->\n", omitted,
			FG_MIN_WIDTH);
	fputs("<g id=\"frames\">\n", f);
	for (i = 0; i < nr; i++)
		write_frame(f, &rects[i], &t->root, o, base - (rects[i].depth + 1) * FG_FRAME_H,
			    label, len + 3);
	fprintf(f, "</g>\n<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n</svg>\n",
		fg_js);
	free(label);
	free(rects);
	if (drawn)
		*drawn = nr;
	if (nr_omitted)
		*nr_omitted = omitted;
	return 0;
}

/* Where the error message's line starting at @i ends: what fits, at a UTF-8 character start. */
static size_t error_line(const char *msg, size_t len, size_t i, size_t cols)
{
	size_t n = len - i < cols ? len - i : cols;

	while (i + n < len && n > 1 && is_cont((unsigned char)msg[i + n]))
		n--;
	return n;
}

void fg_svg_write_error(FILE *f, const struct fg_svg_opts *o, const char *msg)
{
	double width = o->width > 0 ? o->width : FG_WIDTH;
	size_t cols = (size_t)((width - 2 * FG_PAD) / (FG_FONT_SIZE * FG_CHAR_WIDTH)) - 7;
	size_t len = strlen(msg), lines = 0, i, n;
	int y;

	for (i = 0; i < len; i += error_line(msg, len, i, cols))
		lines++;
	write_head(f, o, width, FG_TOP + 30 + 18 * (double)lines);
	for (i = 0, y = FG_TOP + 20; i < len; i += n, y += 18) {
		n = error_line(msg, len, i, cols);
		fprintf(f, "<text class=\"error\" x=\"%d\" y=\"%d\">%s", FG_PAD, y,
			i ? "" : "Error: ");
		xml_escape(f, msg + i, n);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
}
