/* SPDX-License-Identifier: GPL-2.0 */
/* folded.h: FlameGraph's folded stacks ("root;...;leaf COUNT"), parsed in exactly one place */
#ifndef CP_FG_FOLDED_H
#define CP_FG_FOLDED_H

#include <stdio.h>
#include "tree.h"

/* One parsed line: the stack (frames root first, joined by ';') and its count. */
struct folded_line {
	const char *stack; /* points into the line */
	size_t stack_len;
	double count;
};

/*
 * Parses one line of @len bytes, as FlameGraph's flamegraph.pl reads it: the count is the last
 * field, after a run of spaces or tabs (frames may contain spaces), an integer or a decimal;
 * trailing white space (a CR) is ignored. Returns 1 with @out set, 0 for a blank line, or -1
 * for a malformed one with *@why saying why: no count, a count that is not a number, two
 * counts (a differential file), no frames, an empty frame ("a;;b"), a NUL byte.
 */
int folded_parse_line(const char *line, size_t len, struct folded_line *out, const char **why);

/* Adds a parsed line to @t: one frame per ';'-separated name under the root. 0 or -ENOMEM. */
int folded_add(struct fg_tree *t, const struct folded_line *l);

struct folded_stats {
	size_t lines;	  /* lines read, blank ones included */
	size_t stacks;	  /* lines added */
	size_t malformed; /* lines skipped */
	size_t first_bad; /* line number of the first malformed line (from 1), 0 if none */
	const char *first_bad_why;
	char first_bad_text[64]; /* its start, for the message */
	double total;		 /* sum of the counts added */
};

/*
 * Parses @line (@len bytes, line number @lineno) and adds it to @t, counting it in @st;
 * a malformed line is counted and skipped. 0 or -ENOMEM.
 */
int folded_add_line(struct fg_tree *t, const char *line, size_t len, size_t lineno,
		    struct folded_stats *st);
/*
 * What folded_read() reads (docs/cli.md#input-limits): FlameGraph's collapsed stacks of deep
 * C++ or Java programs run to a few hundred KiB a line; the tree takes memory in proportion to
 * the input, so the whole is bounded as the JSON readers are.
 */
#define FOLDED_MAX_LINE (4UL << 20)
#define FOLDED_MAX_BYTES (1ULL << 30)

/*
 * Every line of @f (named @name in messages), within the limits above. 0, or after printing
 * why: -ENOMEM, -E2BIG (a line too long), -EFBIG (too much input), -errno (reading failed).
 */
int folded_read(FILE *f, const char *name, struct fg_tree *t, struct folded_stats *st);

#endif
