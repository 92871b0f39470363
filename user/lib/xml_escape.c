// SPDX-License-Identifier: GPL-2.0
/* xml_escape.c: text into XML (the SVGs of flamegraph and calibrate --plot): entities, UTF-8 */
#include <stdbool.h>
#include <stdint.h>
#include "utf8.h"
#include "xml_escape.h"

static bool xml_char_ok(uint32_t c)
{
	return c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c <= 0xd7ff) ||
	       (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

void xml_escape(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	uint32_t c;

	while (i < len) {
		n = utf8_decode(s + i, len - i, &c);
		if (!n || !xml_char_ok(c)) {
			fputs(UTF8_REPLACEMENT, f);
			i += n ? n : 1;
			continue;
		}
		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			fwrite(p + i, 1, n, f);
		}
		i += n;
	}
}
