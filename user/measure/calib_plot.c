// SPDX-License-Identifier: GPL-2.0
/* calib_plot.c: cost-vs-length SVG written by hand (log-log axes, legend, crossover mark) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calib_plot.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/xml_escape.h"

#define W 1000
#define H 620
#define X0 90.0 /* plot area */
#define X1 (W - 270.0)
#define Y0 70.0
#define Y1 (H - 60.0)
#define MAX_TEXT 90 /* characters kept of free text (CPU model, note) */

/* Deterministic colours: curve i gets palette[i % N]. */
static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				       "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
				       "#393b79", "#637939", "#843c39", "#7b4173" };
#define NR_COLOURS (sizeof(palette) / sizeof(*palette))
static const char *const dashes[COSTMODEL_NR_CACHES] = { "", "8,4", "2,3" };

struct axes {
	double lx0, lx1; /* log2 of the x range */
	double ly0, ly1; /* log10 of the y range */
};

/* Truncate first, then escape, so that an entity is never cut in half. */
static void put_text(FILE *f, const char *s)
{
	size_t len = s ? strlen(s) : 0;

	xml_escape(f, s ? s : "", len < MAX_TEXT ? len : MAX_TEXT);
	if (len > MAX_TEXT)
		fputs("...", f);
}

static double px(const struct axes *a, double size)
{
	return X0 + (log2(size) - a->lx0) / (a->lx1 - a->lx0) * (X1 - X0);
}

static double py(const struct axes *a, double ns)
{
	return Y1 - (log10(ns) - a->ly0) / (a->ly1 - a->ly0) * (Y1 - Y0);
}

static void size_label(char *buf, size_t len, double v)
{
	if (v >= 1 << 30)
		snprintf(buf, len, "%gG", v / (1 << 30));
	else if (v >= 1 << 20)
		snprintf(buf, len, "%gM", v / (1 << 20));
	else if (v >= 1 << 10)
		snprintf(buf, len, "%gK", v / (1 << 10));
	else
		snprintf(buf, len, "%g", v);
}

static void ns_label(char *buf, size_t len, double v)
{
	if (v >= 1e6)
		snprintf(buf, len, "%g ms", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%g \xc2\xb5s", v / 1e3);
	else
		snprintf(buf, len, "%g ns", v);
}

static void draw_axes(FILE *f, const struct axes *a)
{
	int step = (int)ceil((a->lx1 - a->lx0) / 11), e, k;
	char buf[32];

	fprintf(f,
		"<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
		"stroke=\"#444\"/>\n",
		X0, Y0, X1 - X0, Y1 - Y0);
	for (e = (int)a->lx0; e <= (int)a->lx1; e += step ? step : 1) {
		double x = px(a, ldexp(1, e));

		size_label(buf, sizeof(buf), ldexp(1, e));
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n"
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n",
			x, Y0, x, Y1, x, Y1 + 18, buf);
	}
	for (e = (int)a->ly0; e <= (int)a->ly1; e++) {
		for (k = 1; k <= 5; k += k == 1 ? 1 : 3) {
			double v = k * pow(10, e), y;

			if (log10(v) > a->ly1 + 1e-9)
				break;
			y = py(a, v);
			ns_label(buf, sizeof(buf), v);
			fprintf(f,
				"<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
				"stroke=\"%s\"/>\n<text x=\"%.0f\" y=\"%.1f\" "
				"text-anchor=\"end\">%s</text>\n",
				X0, y, X1, y, k == 1 ? "#ccc" : "#eee", X0 - 6, y + 4, buf);
		}
	}
	fprintf(f,
		"<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">length (bytes, log scale)"
		"</text>\n",
		(X0 + X1) / 2, H - 20);
	fprintf(f,
		"<text transform=\"translate(22,%.0f) rotate(-90)\" text-anchor=\"middle\">"
		"cost per call (log scale)</text>\n",
		(Y0 + Y1) / 2);
}

/*
 * The model is linear in the length between measured sizes, which is a curve on log axes:
 * draw each segment as SUBSTEPS pieces so that the line and the crossover mark agree.
 */
#define SUBSTEPS 16
#define MARKERS_UP_TO 40 /* points drawn as dots when a curve has this few */

static void draw_curve(FILE *f, const struct axes *a, const struct costmodel_curve *c,
		       const char *colour, int legend_row)
{
	const char *dash = dashes[c->cache];
	double ly = Y0 + 10 + legend_row * 18;
	size_t i;
	int k;

	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"", colour);
	if (*dash)
		fprintf(f, " stroke-dasharray=\"%s\"", dash);
	fputs(" points=\"", f);
	for (i = 0; i < c->nr_points; i++) {
		double x0 = (double)c->points[i].size, x1, x, y;

		for (k = 0; k < (i + 1 < c->nr_points ? SUBSTEPS : 1); k++) {
			x1 = i + 1 < c->nr_points ? (double)c->points[i + 1].size : x0;
			x = exp2(log2(x0) + (log2(x1) - log2(x0)) * k / SUBSTEPS);
			y = costmodel_cost_ns(c, x);
			if (y > 0)
				fprintf(f, "%.1f,%.1f ", px(a, x), py(a, y));
		}
	}
	fputs("\"/>\n", f);
	for (i = 0; c->nr_points <= MARKERS_UP_TO && i < c->nr_points; i++)
		if (c->points[i].ns > 0)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
				px(a, (double)c->points[i].size), py(a, c->points[i].ns), colour);
	fprintf(f,
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
		"stroke-width=\"2\"",
		X1 + 14, ly, X1 + 44, ly, colour);
	if (*dash)
		fprintf(f, " stroke-dasharray=\"%s\"", dash);
	fprintf(f, "/>\n<text x=\"%.0f\" y=\"%.0f\">", X1 + 50, ly + 4);
	put_text(f, c->name);
	fprintf(f, " (%s)</text>\n", costmodel_cache_name(c->cache));
}

/* memcpy_orig against movsb, per cache state where both are drawn. */
static void draw_crossovers(FILE *f, const struct axes *a, const struct costmodel_curve **drawn,
			    size_t n)
{
	const struct costmodel_curve *orig, *movsb;
	int cache, row = 0;
	size_t i;
	double x;

	for (cache = 0; cache < COSTMODEL_NR_CACHES; cache++) {
		orig = movsb = NULL;
		for (i = 0; i < n; i++) {
			if (drawn[i]->cache != (enum costmodel_cache)cache)
				continue;
			if (!strcmp(drawn[i]->name, "memcpy_orig"))
				orig = drawn[i];
			if (!strcmp(drawn[i]->name, "movsb"))
				movsb = drawn[i];
		}
		if (!orig || !movsb)
			continue;
		if (costmodel_crossover(orig, movsb, &x)) {
			fprintf(f,
				"<text x=\"%.0f\" y=\"%.0f\" fill=\"#900\">no crossover of "
				"memcpy_orig and movsb (%s) in the measured range</text>\n",
				X0 + 8, Y0 + 16 + 16 * row++, costmodel_cache_name(cache));
			continue;
		}
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#900\" "
			"stroke-dasharray=\"4,4\"/>\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
			"fill=\"none\" stroke=\"#900\" stroke-width=\"2\"/>\n",
			px(a, x), Y0, px(a, x), Y1, px(a, x), py(a, costmodel_cost_ns(orig, x)));
		fprintf(f,
			"<text x=\"%.0f\" y=\"%.0f\" fill=\"#900\">crossover (%s): movsb "
			"&lt;= memcpy_orig from %.0f bytes</text>\n",
			X0 + 8, Y0 + 16 + 16 * row++, costmodel_cache_name(cache), x);
	}
}

static void draw(FILE *f, const struct costmodel *m, const struct costmodel_curve **drawn, size_t n)
{
	double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
	struct axes a;
	size_t i, j;

	fprintf(f,
		"<text x=\"%d\" y=\"26\" text-anchor=\"middle\" font-size=\"17\">copyprof "
		"calibrate: cost per call by length</text>\n<text x=\"%d\" y=\"46\" "
		"text-anchor=\"middle\" fill=\"#555\">",
		W / 2, W / 2);
	put_text(f, m->meta.cpu_model ?: "unknown CPU");
	if (m->meta.kernel) {
		fputs(", kernel ", f);
		put_text(f, m->meta.kernel);
	}
	if (!m->measured) {
		fputs(" - ", f);
		put_text(f, m->note ?: "not measured");
	}
	fputs("</text>\n", f);
	for (i = 0; i < n; i++)
		for (j = 0; j < drawn[i]->nr_points; j++) {
			const struct costmodel_point *p = &drawn[i]->points[j];

			if (p->ns <= 0)
				continue;
			xmin = fmin(xmin, (double)p->size);
			xmax = fmax(xmax, (double)p->size);
			ymin = fmin(ymin, p->ns);
			ymax = fmax(ymax, p->ns);
		}
	if (xmax == 0) {
		fprintf(f,
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#900\">"
			"nothing to draw: no chosen curve has a point with a positive cost"
			"</text>\n",
			W / 2, H / 2);
		return;
	}
	a.lx0 = floor(log2(xmin));
	a.lx1 = fmax(ceil(log2(xmax)), a.lx0 + 1);
	a.ly0 = floor(log10(ymin));
	a.ly1 = fmax(ceil(log10(ymax)), a.ly0 + 1);
	draw_axes(f, &a);
	for (i = 0; i < n; i++)
		draw_curve(f, &a, drawn[i], palette[i % NR_COLOURS], (int)i);
	draw_crossovers(f, &a, drawn, n);
}

int calib_plot_svg(const struct costmodel *m, const char *path, calib_plot_filter *want, void *ctx)
{
	const struct costmodel_curve **drawn;
	char *buf = NULL;
	size_t len = 0, n = 0, i;
	FILE *f;
	int err;

	drawn = calloc(m->nr_curves + 1, sizeof(*drawn));
	f = open_memstream(&buf, &len);
	if (!drawn || !f) {
		free(drawn);
		p_err("cannot build the plot: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; i < m->nr_curves; i++)
		if (!want || want(&m->curves[i], ctx))
			drawn[n++] = &m->curves[i];
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"Verdana, sans-serif\" "
		"font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		W, H, W, H);
	draw(f, m, drawn, n);
	fputs("</svg>\n", f);
	fclose(f);
	err = outfile_write(path, buf, len);
	free(buf);
	free(drawn);
	if (!err && !n)
		return -ENOENT;
	return err;
}
