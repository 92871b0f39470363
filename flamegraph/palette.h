/* SPDX-License-Identifier: GPL-2.0 */
/* palette.h: frame colours, a function of the frame alone, so the same input gives the same SVG */
#ifndef CP_FG_PALETTE_H
#define CP_FG_PALETTE_H

#include <stdint.h>
#include "tree.h"

struct fg_rgb {
	uint8_t r, g, b;
};

/*
 * Warm colours (red to yellow) for code frames, blue ones for length frames; the shade comes
 * from a hash of the name (FNV-1a), so a function has one colour in every graph.
 */
struct fg_rgb fg_palette_name(enum fg_kind kind, const char *name);
/*
 * The threshold view: @delta = at / today - 1. Grey at 0, greener towards -@full (a saving),
 * redder towards +@full (a loss), full colour beyond; grey everywhere if @full is 0.
 */
struct fg_rgb fg_palette_delta(double delta, double full);

/*
 * The differential view: @delta = after / before - 1. Grey at 0, redder towards +@full
 * (growth), bluer towards -@full (shrinkage), full colour beyond; NAN (no BEFORE: a new frame)
 * is full red.
 */
struct fg_rgb fg_palette_change(double delta, double full);

#endif
