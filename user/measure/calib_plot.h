/* SPDX-License-Identifier: GPL-2.0 */
/* calib_plot.h: an SVG of cost per call against length (log-log), one line per curve */
#ifndef CP_CALIB_PLOT_H
#define CP_CALIB_PLOT_H

#include <stdbool.h>
#include "costmodel/costmodel.h"

/* Which curves to draw: @want(curve, ctx) true. NULL draws every curve. */
typedef bool calib_plot_filter(const struct costmodel_curve *c, void *ctx);

/*
 * Writes an SVG (atomically) with a log x axis (bytes) and a log y axis (ns per call), one
 * polyline per chosen curve, and the crossover of memcpy_orig and movsb marked where both are
 * drawn in one cache state. With nothing to draw the SVG still is valid and says so, and
 * -ENOENT is returned. Returns 0, -ENOENT, or -errno (printed).
 */
int calib_plot_svg(const struct costmodel *m, const char *path, calib_plot_filter *want, void *ctx);

#endif
