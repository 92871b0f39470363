// SPDX-License-Identifier: GPL-2.0
/* calib_table.c: seed-style tables: orig vs REP MOVSB by length, orig vs patched at 4 KiB */
#include <math.h>
#include <string.h>
#include "calib_table.h"

static const unsigned int short_sizes[] = { 32, 64, 128, 256 };
#define PATCH_SIZE 4096

static const struct {
	enum costmodel_cache cache;
	const char *label;
} patch_rows[] = {
	{ COSTMODEL_WARM, "warmed" },
	{ COSTMODEL_SRC_FLUSHED, "source flushed" },
	{ COSTMODEL_DST_FLUSHED, "destination flushed" },
};

/* The cost at exactly @size; NaN if that size was not measured (no interpolation here). */
static double at(const struct costmodel_curve *c, unsigned int size)
{
	const struct costmodel_point *p = costmodel_point_at(c, size);

	return p ? p->ns : NAN;
}

/* "%*.1f ns" or n/a in the same width; counts what was missing. */
static void cell_ns(FILE *f, int width, double v, int *missing)
{
	if (isnan(v)) {
		fprintf(f, "%*s", width + 3, "n/a");
		(*missing)++;
	} else {
		fprintf(f, "%*.1f ns", width, v);
	}
}

static void cell_pct(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, "%11s", "n/a");
	else
		fprintf(f, "%10.1f%%", v);
}

static void print_source(FILE *f, const struct costmodel *m)
{
	fprintf(f, "cost model: %s", m->meta.cpu_model ?: "unknown CPU");
	if (m->meta.kernel)
		fprintf(f, ", kernel %s", m->meta.kernel);
	fprintf(f, "%s\n", m->erms ? "" : ", no ERMS");
	if (m->note)
		fprintf(f, "  (%s)\n", m->note);
	else if (!m->measured)
		fprintf(f, "  (not measured)\n");
	fputc('\n', f);
}

int calib_table_print(FILE *f, const struct costmodel *m)
{
	const struct costmodel_curve *orig, *movsb, *patched;
	char runs[32] = "";
	int missing = 0;
	double x;
	size_t i;

	print_source(f, m);
	if (m->runs > 0)
		snprintf(runs, sizeof(runs), ", medians of %d runs", m->runs);
	orig = costmodel_find(m, "memcpy_orig", COSTMODEL_WARM);
	movsb = costmodel_find(m, "movsb", COSTMODEL_WARM);
	fprintf(f, "memcpy_orig (orig) against movsb (REP MOVSB), warm%s:\n\n", runs);
	fprintf(f, "  bytes          orig    REP MOVSB   increase\n");
	for (i = 0; i < sizeof(short_sizes) / sizeof(*short_sizes); i++) {
		double o = at(orig, short_sizes[i]), r = at(movsb, short_sizes[i]);

		fprintf(f, "%7u", short_sizes[i]);
		cell_ns(f, 11, o, &missing);
		cell_ns(f, 10, r, &missing);
		cell_pct(f, (r - o) / o * 100);
		fputc('\n', f);
	}

	patched = NULL;
	for (i = 0; i < m->nr_curves && !patched; i++)
		if (!strcmp(m->curves[i].name, "erms_threshold"))
			patched = &m->curves[i];
	fprintf(f, "\nAligned %u-byte copies: memcpy_orig (orig) against erms_threshold (patched",
		PATCH_SIZE);
	if (patched && patched->threshold >= 0)
		fprintf(f, ", T=%lld", (long long)patched->threshold);
	fprintf(f, ")%s:\n\n", runs);
	fprintf(f, "                                    orig    patched  reduction\n");
	for (i = 0; i < sizeof(patch_rows) / sizeof(*patch_rows); i++) {
		double o, p;

		o = at(costmodel_find(m, "memcpy_orig", patch_rows[i].cache), PATCH_SIZE);
		p = at(costmodel_find(m, "erms_threshold", patch_rows[i].cache), PATCH_SIZE);
		fprintf(f, "  %-20s", patch_rows[i].label);
		cell_ns(f, 15, o, &missing);
		cell_ns(f, 8, p, &missing);
		cell_pct(f, (o - p) / o * 100);
		fputc('\n', f);
	}

	if (orig && movsb) {
		if (!costmodel_crossover(orig, movsb, &x))
			fprintf(f,
				"\nwarm crossover: movsb costs no more than memcpy_orig from about "
				"%.0f bytes (linear interpolation between measured sizes)\n",
				x);
		else
			fprintf(f,
				"\nwarm crossover: movsb stays dearer than memcpy_orig over every "
				"size measured for both\n");
	}
	return missing;
}
