/* SPDX-License-Identifier: GPL-2.0 */
/* ctrl_escape.h: text from outside made safe for a terminal: control characters shown, not sent */
#ifndef CP_CTRL_ESCAPE_H
#define CP_CTRL_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Symbols, paths and labels come from profiles, binaries and servers, and may hold bytes a
 * terminal acts on (ESC ] 0 ; retitles it, ESC [ 2 J clears it). Text output shows them
 * instead (docs/cli.md#text-output):
 *   - a C0 control but tab and newline, as \xHH (ESC is \x1b, CR \x0d);
 *   - a C1 control, U+0080 to U+009F in UTF-8 (C2 80 .. C2 9F), as \u0080 .. \u009f;
 *   - a bidirectional control (U+061C, U+200E, U+200F, U+202A .. U+202E, U+2066 .. U+2069),
 *     which reorders what follows it on the screen, as \u202e and the like;
 *   - a byte that starts no valid UTF-8 sequence, as \xHH (a lone 0x9b is CSI to a Latin-1
 *     terminal).
 * Printable ASCII, DEL, backslashes and all other valid UTF-8 above U+009F pass unchanged, so
 * that JSON text (json-c writes controls as \u00XX, and the forms above are valid in its
 * strings) and text without controls come out byte for byte as they went in.
 */

/* Where escaped text goes: 0, or a negative errno that stops the writing. */
typedef int (*ctrl_escape_sink)(void *ctx, const char *s, size_t len);

/* A stream's state: the start of a UTF-8 sequence cut by the end of a write. */
struct ctrl_escape {
	char carry[4];
	size_t nr_carry;
};

/*
 * Escapes @len bytes of @s into @sink. Without @last, a UTF-8 sequence cut short at the end is
 * kept in @st for the next call; with @last it is escaped byte by byte. 0 or the sink's error.
 */
int ctrl_escape_write(struct ctrl_escape *st, const char *s, size_t len, bool last,
		      ctrl_escape_sink sink, void *ctx);

/* @len bytes of @s escaped, as a malloc()ed string; NULL without memory. */
char *ctrl_escape_dup(const char *s, size_t len);

/* True if @len bytes of @s would pass ctrl_escape_write() unchanged. */
bool ctrl_escape_clean(const char *s, size_t len);

#endif
