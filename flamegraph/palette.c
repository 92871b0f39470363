// SPDX-License-Identifier: GPL-2.0
/* palette.c: deterministic frame colours: by name hash, or by saving in the threshold view */
#include <math.h>
#include "palette.h"

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

struct fg_rgb fg_palette_name(enum fg_kind kind, const char *name)
{
	uint32_t h = fnv1a(name);
	/* Three independent shades in [0, 1] from the hash's bytes. */
	double a = (h & 0xff) / 255.0, b = ((h >> 8) & 0xff) / 255.0,
	       c = ((h >> 16) & 0xff) / 255.0;

	if (kind == FG_KIND_LENGTH)
		return (struct fg_rgb){ (uint8_t)(70 + 60 * a), (uint8_t)(140 + 70 * b),
					(uint8_t)(200 + 55 * c) };
	return (struct fg_rgb){ (uint8_t)(210 + 45 * a), (uint8_t)(70 + 150 * b),
				(uint8_t)(20 + 50 * c) };
}

static uint8_t mix(uint8_t from, uint8_t to, double s)
{
	return (uint8_t)lround(from + (to - from) * s);
}

/* A diverging scale: grey at 0, @below at -@full and beyond, @above at +@full; @nan if undefined. */
static struct fg_rgb diverging(double delta, double full, struct fg_rgb below, struct fg_rgb above,
			       struct fg_rgb nan)
{
	const struct fg_rgb grey = { 215, 215, 210 };
	const struct fg_rgb to = delta < 0 ? below : above;
	double s;

	if (!isfinite(delta))
		return nan;
	s = full > 0 ? fabs(delta) / full : 0;
	if (s > 1)
		s = 1;
	return (struct fg_rgb){ mix(grey.r, to.r, s), mix(grey.g, to.g, s), mix(grey.b, to.b, s) };
}

struct fg_rgb fg_palette_delta(double delta, double full)
{
	const struct fg_rgb grey = { 215, 215, 210 }, green = { 40, 170, 60 },
			    red = { 220, 45, 40 };

	return diverging(delta, full, green, red, grey);
}

struct fg_rgb fg_palette_change(double delta, double full)
{
	const struct fg_rgb blue = { 40, 90, 220 }, red = { 220, 45, 40 };

	return diverging(delta, full, blue, red, red);
}
