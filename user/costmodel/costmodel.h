/* SPDX-License-Identifier: GPL-2.0 */
/* costmodel.h: measured cost per call by length (docs/costmodel-format.md): memory, JSON, lookup */
#ifndef CP_COSTMODEL_H
#define CP_COSTMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "lib/host.h"
#include "costmodel_limits.h"
#include "mixmeas.h"

#define COSTMODEL_FORMAT "copyprof-costmodel"
#define COSTMODEL_VERSION 1

enum costmodel_cache {
	COSTMODEL_WARM,	       /* both buffers used over and over: in cache */
	COSTMODEL_SRC_FLUSHED, /* every source line clflushed before each call */
	COSTMODEL_DST_FLUSHED, /* every destination line clflushed before each call */
	COSTMODEL_NR_CACHES,
};

/* One measured size. spread < 0 means unknown (a model built from published figures). */
struct costmodel_point {
	uint64_t size;
	double ns;     /* median over runs of the per-run median, per call */
	double cycles; /* the same in TSC cycles (0 if unknown) */
	double spread; /* (max - min) / median of the per-run medians */
	double ns_min; /* fastest and slowest per-run median (0 if unknown) */
	double ns_max;
	double ci; /* half-width of the 95% interval of @ns (ns; 0 if unknown) */
	int runs;  /* runs behind @ns (0 if unknown: the model's runs) */
};

/* The cost of one implementation in one cache state, by size; points sorted by size. */
struct costmodel_curve {
	char *name;   /* asm-ref name, e.g. "memcpy_orig" */
	char *family; /* memcpy | memmove | clear_user | memset */
	enum costmodel_cache cache;
	uint32_t align_dst, align_src;
	int64_t threshold; /* erms_threshold's T, or -1 */
	struct costmodel_point *points;
	size_t nr_points;
};

struct costmodel {
	struct host_meta meta; /* kernel, CPU, flags, host, start, tool version, command */
	bool erms;	       /* the CPU reported ERMS when this was measured */
	bool measured;	       /* false for a model built from published figures */
	char *note;	       /* where the figures come from, free text */
	char *timer;	       /* "rdtscp" or "lfence+rdtsc" */
	double tsc_hz;	       /* TSC frequency measured against CLOCK_MONOTONIC */
	double timer_overhead_cycles;
	double timer_step_cycles; /* the TSC's step: single timed calls are quantised to it */
	int cpu;		  /* CPU pinned to, -1 if unknown */
	int runs;
	struct costmodel_limits limits; /* this machine's measured best ("limits"); 0: unknown */
	struct costmodel_curve *curves;
	size_t nr_curves;
	/*
	 * calibrate --mix's paired measurements of given length mixes, by family and mix digest,
	 * each a sitting (costmodel_paired.h, docs/costmodel-format.md#paired): what estimate
	 * answers with for those mixes.
	 */
	struct mixmeas *paired;
	size_t nr_paired;
};

struct costmodel *costmodel_new(void);
void costmodel_free(struct costmodel *m);
/*
 * Appends an empty curve (copies the strings); NULL on allocation failure. The curves are one
 * array: a pointer to a curve is only good until the next costmodel_add_curve().
 */
struct costmodel_curve *costmodel_add_curve(struct costmodel *m, const char *name,
					    const char *family, enum costmodel_cache cache);
/* Appends a point, keeping the points sorted by size. Returns 0 or -ENOMEM/-EEXIST. */
int costmodel_curve_add_point(struct costmodel_curve *c, const struct costmodel_point *p);

/* "warm", "src-flushed", "dst-flushed"; parse returns -1 for anything else. */
const char *costmodel_cache_name(enum costmodel_cache cache);
int costmodel_cache_parse(const char *s);

/*
 * First curve of implementation @name in @cache state, or NULL: one whose pointer distance
 * (align_dst - align_src) mod 4096 is outside the short-distance windows where there is one
 * (calibrate --distance adds curves inside them, found with costmodel_find_dist()).
 */
const struct costmodel_curve *costmodel_find(const struct costmodel *m, const char *name,
					     enum costmodel_cache cache);
/* The curve's pointer distance class (enum cp_dist_class of cp_shared.h). */
int costmodel_curve_dist(const struct costmodel_curve *c);
/* First curve of @name in @cache whose distance class is @cls, or NULL. */
const struct costmodel_curve *costmodel_find_dist(const struct costmodel *m, const char *name,
						  enum costmodel_cache cache, int cls);
/* The point measured at exactly @size, or NULL. */
const struct costmodel_point *costmodel_point_at(const struct costmodel_curve *c, uint64_t size);

/*
 * Cost in ns of one call of @size bytes. Between two measured sizes the cost is interpolated
 * linearly; below the smallest it is that point's cost; above the largest it follows the line
 * through the last two points (large copies cost a fixed part plus a part per byte). A curve
 * with one point is constant. Returns NaN for a curve without points.
 */
double costmodel_cost_ns(const struct costmodel_curve *c, double size);
/*
 * Average cost in ns of one call over the integer lengths in [lo, hi), each length weighted
 * equally, under the same piecewise-linear model: exact, in time linear in the number of points
 * (not in hi - lo). For a profile bucket, multiply by its call count. NaN if lo >= hi.
 */
double costmodel_avg_ns(const struct costmodel_curve *c, uint64_t lo, uint64_t hi);
/*
 * The size from which @b costs no more than @a up to the largest size measured for both (the
 * last crossing, so that noise or a dip at short lengths does not count), from the
 * piecewise-linear models of both over the sizes measured in either. Returns 0 and sets *@size
 * (rounded up to an integer; the smallest common size if @b is never dearer), or -ENOENT if
 * @b is still dearer at the largest common size.
 */
int costmodel_crossover(const struct costmodel_curve *a, const struct costmodel_curve *b,
			double *size);

json_object *costmodel_to_json(const struct costmodel *m);
/* Writes atomically ("-" is stdout). Returns 0 or -errno (printed). */
int costmodel_write(const struct costmodel *m, const char *path);
/* Reads and validates; prints why a file is refused. Returns 0 or -errno/-EINVAL. */
int costmodel_read(const char *path, struct costmodel **out);
int costmodel_from_json(json_object *root, const char *name, struct costmodel **out);

#endif
