// SPDX-License-Identifier: GPL-2.0
/* line_reader.c: text read a line at a time within a longest line and a largest input */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "line_reader.h"
#include "log.h"

/* What one read from the FILE takes; lines are assembled from these. */
#define LINE_READER_CHUNK 65536

void line_reader_init(struct line_reader *r, FILE *f, const char *name, const char *what,
		      size_t max_line, uint64_t max_bytes)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->name = name;
	r->what = what;
	r->max_line = max_line;
	r->max_bytes = max_bytes;
}

const char *line_reader_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (u < 4 && bytes >= 1024 && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)bytes, units[u]);
	return buf;
}

static int refuse_long(struct line_reader *r)
{
	char lim[32];

	line_reader_size(r->max_line, lim, sizeof(lim));
	p_err("%s:%llu: line longer than %s (no newline within its first %s), the most %s may "
	      "have (docs/cli.md#input-limits)",
	      r->name, (unsigned long long)r->lineno + 1, lim, lim, r->what);
	return -E2BIG;
}

static int refuse_big(struct line_reader *r)
{
	char lim[32];

	p_err("%s: more than %s, the most %s may be (docs/cli.md#input-limits)", r->name,
	      line_reader_size(r->max_bytes, lim, sizeof(lim)), r->what);
	return -EFBIG;
}

static int refill(struct line_reader *r)
{
	size_t n;

	if (!r->chunk && !(r->chunk = malloc(LINE_READER_CHUNK))) {
		p_err("out of memory reading %s", r->name);
		return -ENOMEM;
	}
	n = fread(r->chunk, 1, LINE_READER_CHUNK, r->f);
	if (!n && ferror(r->f)) {
		int err = errno ? errno : EIO;

		p_err("cannot read %s: %s", r->name, strerror(err));
		return -err;
	}
	r->pos = 0;
	r->end = n;
	r->eof = !n;
	return 0;
}

/* Appends @n bytes to the line, growing it by doubling (it never passes max_line + 1). */
static int append(struct line_reader *r, const char *s, size_t n)
{
	if (r->len + n + 1 > r->cap) {
		size_t cap = r->cap ? r->cap : 256;
		char *line;

		while (cap < r->len + n + 1)
			cap *= 2;
		line = realloc(r->line, cap);
		if (!line) {
			p_err("out of memory reading %s", r->name);
			return -ENOMEM;
		}
		r->line = line;
		r->cap = cap;
	}
	memcpy(r->line + r->len, s, n);
	r->len += n;
	r->line[r->len] = '\0';
	return 0;
}

int line_reader_next(struct line_reader *r)
{
	const char *start, *nl;
	size_t take;
	int err;

	r->len = 0;
	if (r->line)
		r->line[0] = '\0';
	while (!r->eof) {
		if (r->pos == r->end) {
			errno = 0;
			err = refill(r);
			if (err)
				return err;
			continue;
		}
		start = r->chunk + r->pos;
		nl = memchr(start, '\n', r->end - r->pos);
		take = nl ? (size_t)(nl - start) + 1 : r->end - r->pos;
		/* Checked before the bytes are kept: nothing over a limit is ever held. */
		if (r->bytes + take > r->max_bytes)
			return refuse_big(r);
		if (r->len + take > r->max_line)
			return refuse_long(r);
		err = append(r, start, take);
		if (err)
			return err;
		r->pos += take;
		r->bytes += take;
		if (nl)
			break;
	}
	if (!r->len)
		return 0;
	r->lineno++;
	return 1;
}

void line_reader_free(struct line_reader *r)
{
	free(r->line);
	free(r->chunk);
	r->line = r->chunk = NULL;
	r->cap = r->len = 0;
}
