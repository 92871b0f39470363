// SPDX-License-Identifier: GPL-2.0
/* ctrl_escape.c: control characters and invalid UTF-8 in outside text shown as \xHH or \uHHHH */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctrl_escape.h"
#include "utf8.h"

/* How much of the input one pass copies beside the carry. */
#define CTRL_ESCAPE_PIECE 4096

static bool plain(unsigned char c)
{
	return (c >= 0x20 && c < 0x80) || c == '\t' || c == '\n';
}

/*
 * A code point shown, not sent: a C1 control, or a Unicode bidirectional control, which
 * reorders the text after it on the terminal (U+202E shows "gnp.exe" for "exe.png"): ALM,
 * LRM and RLM, the embeddings and overrides U+202A..U+202E, the isolates U+2066..U+2069.
 */
static bool shown_escaped(uint32_t cp)
{
	return cp <= 0x9f || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Bytes in the sequence a lead byte starts (2 to 4), or 0 if it starts none. */
static size_t lead_len(unsigned char c)
{
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/* Could the @n bytes at @s, fewer than their lead byte needs, begin a valid sequence? */
static bool cut_short(const char *s, size_t n)
{
	size_t need = lead_len((unsigned char)s[0]), i;

	if (!need || n >= need)
		return false;
	for (i = 1; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			return false;
	return true;
}

/*
 * Escapes @s into @sink, a run of plain text in one call. Stops before a sequence cut short
 * unless @last; *@used says how far it went. 0 or the sink's error.
 */
static int escape_some(const char *s, size_t len, bool last, ctrl_escape_sink sink, void *ctx,
		       size_t *used)
{
	size_t i = 0, run = 0, n;
	char esc[8];
	uint32_t cp;
	int err;

	while (i < len) {
		unsigned char c = (unsigned char)s[i];

		if (plain(c)) {
			i++;
			continue;
		}
		n = 0;
		if (c >= 0x80) {
			n = utf8_decode(s + i, len - i, &cp);
			if (n && !shown_escaped(cp)) {
				i += n;
				continue;
			}
			if (!n && !last && cut_short(s + i, len - i))
				break;
		}
		if (i > run && (err = sink(ctx, s + run, i - run)))
			return err;
		if (n) /* a C1 or bidirectional control */
			snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)cp);
		else
			snprintf(esc, sizeof(esc), "\\x%02x", c);
		i += n ? n : 1;
		run = i;
		if ((err = sink(ctx, esc, strlen(esc))))
			return err;
	}
	if (i > run && (err = sink(ctx, s + run, i - run)))
		return err;
	*used = i;
	return 0;
}

int ctrl_escape_write(struct ctrl_escape *st, const char *s, size_t len, bool last,
		      ctrl_escape_sink sink, void *ctx)
{
	char buf[sizeof(st->carry) + CTRL_ESCAPE_PIECE];
	size_t piece, have, used;
	int err;

	do {
		piece = len < CTRL_ESCAPE_PIECE ? len : CTRL_ESCAPE_PIECE;
		memcpy(buf, st->carry, st->nr_carry);
		memcpy(buf + st->nr_carry, s, piece);
		have = st->nr_carry + piece;
		s += piece;
		len -= piece;
		err = escape_some(buf, have, last && !len, sink, ctx, &used);
		if (err)
			return err;
		st->nr_carry = have - used; /* at most 3: the start of one sequence */
		memcpy(st->carry, buf + used, st->nr_carry);
	} while (len);
	return 0;
}

static int to_file(void *ctx, const char *s, size_t len)
{
	return fwrite(s, 1, len, ctx) == len ? 0 : -EIO;
}

char *ctrl_escape_dup(const char *s, size_t len)
{
	struct ctrl_escape st = { 0 };
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	int err;

	if (!f)
		return NULL;
	err = ctrl_escape_write(&st, s, len, true, to_file, f);
	if (fclose(f) || err) {
		free(out);
		return NULL;
	}
	return out;
}

bool ctrl_escape_clean(const char *s, size_t len)
{
	size_t i = 0, n;
	uint32_t cp;

	while (i < len) {
		if (plain((unsigned char)s[i])) {
			i++;
			continue;
		}
		n = utf8_decode(s + i, len - i, &cp);
		if (!n || shown_escaped(cp))
			return false;
		i += n;
	}
	return true;
}
