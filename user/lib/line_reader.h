/* SPDX-License-Identifier: GPL-2.0 */
/* line_reader.h: text inputs read a line at a time, with a longest line and a largest input */
#ifndef CP_LINE_READER_H
#define CP_LINE_READER_H

#include <stdint.h>
#include <stdio.h>

/*
 * Every reader of line-oriented text from outside (a size table, folded stacks, perf script
 * output, a preset, kernel lists) reads through this, so that no input can make copyprof hold
 * an endless line in memory (/dev/zero has no newline) or read without end: each reader sets
 * its own limits (docs/cli.md#input-limits) and a refusal names the input, the line and the
 * limit. Lines may hold NUL bytes: @len counts them, strlen() does not.
 */
struct line_reader {
	FILE *f;
	const char *name; /* the input, for messages */
	const char *what; /* what it should be, for messages: "a size table" */
	size_t max_line;  /* a line's most bytes, its newline included */
	uint64_t max_bytes;
	char *line;	 /* the current line, NUL-terminated, its newline kept if it had one */
	size_t len;	 /* bytes in @line */
	uint64_t lineno; /* of @line, from 1 */
	uint64_t bytes;	 /* read so far */
	/* the reader's own */
	size_t cap;
	char *chunk;
	size_t pos, end;
	int eof;
};

/* Reads @f (not closed here), named @name, expected to hold @what, within the limits given. */
void line_reader_init(struct line_reader *r, FILE *f, const char *name, const char *what,
		      size_t max_line, uint64_t max_bytes);

/*
 * The next line into r->line. Returns 1, 0 at the end of the input, or after printing why
 * (p_err): -E2BIG for a line over max_line, -EFBIG for an input over max_bytes, -ENOMEM, or
 * -errno if reading failed (a folder: -EISDIR).
 */
int line_reader_next(struct line_reader *r);

void line_reader_free(struct line_reader *r);

/* @bytes as the limits are given: "64 KiB", "16 MiB", "1 GiB" (@buf of at least 32 bytes). */
const char *line_reader_size(uint64_t bytes, char *buf, size_t len);

#endif
