/* SPDX-License-Identifier: GPL-2.0 */
/* pprof.h: build a pprof profile (proto/pprof.proto): interned strings, frames, samples, gzip */
#ifndef CP_PPROF_H
#define CP_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "proto/pprof.pb-c.h"
#include "lib/counter_map.h"

/*
 * The profile under construction and the tables that give each string, mapping, function and
 * location one entry. Every call may fail for memory; the failure is sticky (@oom), checked
 * once by pprof_pack_gzip(), so callers need not test each id.
 */
struct pprof {
	Perftools__Profiles__Profile *msg;
	struct counter_map strings; /* string -> index + 1 */
	struct counter_map ids;	    /* "m|f|l" + key -> mapping, function or location id */
	bool oom;
};

/* One line of a location: @function (in @file) at @line; file may be NULL. */
struct pprof_line {
	const char *function;
	const char *file;
	int64_t line;
};

/* A sample's label: a string (@str) or, when @str is NULL, a number in @unit. */
struct pprof_label {
	const char *key;
	const char *str;
	int64_t num;
	const char *unit;
};

int pprof_init(struct pprof *pp);
void pprof_free(struct pprof *pp);

/* Index of @s in the string table (invalid UTF-8 replaced); NULL and "" are 0. */
int64_t pprof_str(struct pprof *pp, const char *s);
/* Appends a sample type ("calls", "count"); types come before samples. */
void pprof_add_type(struct pprof *pp, const char *type, const char *unit);
/* The mapping (binary or module) named @file with @build_id (may be NULL): its id. */
uint64_t pprof_mapping(struct pprof *pp, const char *file, const char *build_id);
/*
 * The location known as @key, made on first use from @mapping (0: none) and @lines (innermost
 * first; the last is the function the others were inlined into). Returns its id.
 */
uint64_t pprof_location(struct pprof *pp, const char *key, uint64_t mapping,
			const struct pprof_line *lines, size_t nr_lines);
/* Appends a sample: @locs leaf first, one value per sample type. */
void pprof_add_sample(struct pprof *pp, const uint64_t *locs, size_t nr_locs, const int64_t *values,
		      const struct pprof_label *labels, size_t nr_labels);
/* Appends a comment line to the profile. */
void pprof_add_comment(struct pprof *pp, const char *text);

/* The gzip-compressed encoding in a malloc()ed buffer; 0 or -ENOMEM/-EIO. */
int pprof_pack_gzip(struct pprof *pp, void **out, size_t *len);

#endif
