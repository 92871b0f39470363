// SPDX-License-Identifier: GPL-2.0
/* folded.c: the one parser of folded stack lines, and reading a folded file into a frame tree */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "folded.h"
#include "lib/line_reader.h"
#include "lib/log.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* FlameGraph's count: digits, optionally a '.' and more digits. */
static bool is_count(const char *s, size_t len)
{
	size_t i = 0, digits = 0;

	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < len && s[i] == '.')
		i++;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	return digits && i == len;
}

int folded_parse_line(const char *line, size_t len, struct folded_line *out, const char **why)
{
	size_t end = len, sep, start, i;
	char num[64];

	while (end && is_blank(line[end - 1]))
		end--;
	if (!end)
		return 0;
	if (memchr(line, '\0', end)) {
		*why = "a NUL byte";
		return -1;
	}
	for (sep = end; sep && line[sep - 1] != ' ' && line[sep - 1] != '\t'; sep--)
		;
	if (!sep) {
		*why = "no count after the stack";
		return -1;
	}
	if (!is_count(line + sep, end - sep) || end - sep >= sizeof(num)) {
		*why = "the last field is not a count";
		return -1;
	}
	memcpy(num, line + sep, end - sep);
	num[end - sep] = '\0';
	while (sep && (line[sep - 1] == ' ' || line[sep - 1] == '\t'))
		sep--;
	if (!sep) {
		*why = "no frames before the count";
		return -1;
	}
	/* "stack 10 12" is FlameGraph's differential format, which we do not draw. */
	for (start = sep; start && line[start - 1] != ' ' && line[start - 1] != '\t'; start--)
		;
	if (start && is_count(line + start, sep - start)) {
		*why = "two counts (a differential folded file)";
		return -1;
	}
	for (i = 0, start = 0; i <= sep; i++) {
		if (i < sep && line[i] != ';')
			continue;
		if (i == start) {
			*why = "an empty frame";
			return -1;
		}
		start = i + 1;
	}
	out->stack = line;
	out->stack_len = sep;
	out->count = strtod(num, NULL);
	return 1;
}

int folded_add(struct fg_tree *t, const struct folded_line *l)
{
	struct fg_node *n = &t->root;
	size_t start = 0, i;

	if (l->count <= 0)
		return 0;
	for (i = 0; i <= l->stack_len; i++) {
		if (i < l->stack_len && l->stack[i] != ';')
			continue;
		n = fg_tree_child(t, n, l->stack + start, i - start, 0, FG_KIND_FRAME);
		if (!n)
			return -ENOMEM;
		start = i + 1;
	}
	fg_tree_add(n, l->count, 0, 0, 0);
	return 0;
}

int folded_add_line(struct fg_tree *t, const char *line, size_t len, size_t lineno,
		    struct folded_stats *st)
{
	struct folded_line l;
	const char *why = NULL;
	size_t n, i;
	int r;

	st->lines++;
	r = folded_parse_line(line, len, &l, &why);
	if (r == 0)
		return 0;
	if (r < 0) {
		if (!st->malformed++) {
			st->first_bad = lineno;
			st->first_bad_why = why;
			n = len < sizeof(st->first_bad_text) - 1 ? len
								 : sizeof(st->first_bad_text) - 1;
			/* Only printable ASCII goes into the message. */
			for (i = 0; i < n && line[i] != '\n' && line[i] != '\r'; i++)
				st->first_bad_text[i] =
					line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
			st->first_bad_text[i] = '\0';
		}
		return 0;
	}
	st->stacks++;
	st->total += l.count;
	return folded_add(t, &l);
}

int folded_read(FILE *f, const char *name, struct fg_tree *t, struct folded_stats *st)
{
	struct line_reader r;
	int err = 0, more;

	line_reader_init(&r, f, name, "folded stacks", FOLDED_MAX_LINE, FOLDED_MAX_BYTES);
	while (!err && (more = line_reader_next(&r)) > 0)
		err = folded_add_line(t, r.line, r.len, (size_t)r.lineno, st);
	if (err == -ENOMEM)
		p_err("out of memory reading folded stacks %s", name);
	line_reader_free(&r);
	return err ?: more;
}
