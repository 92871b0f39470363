// SPDX-License-Identifier: GPL-2.0
/* utf8.c: validating UTF-8 sequences (RFC 3629) and replacing the bytes that are not */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "utf8.h"

size_t utf8_decode(const char *s, size_t len, uint32_t *cpp)
{
	const uint8_t *p = (const uint8_t *)s;
	uint32_t cp, min;
	size_t n, i;

	if (!len)
		return 0;
	if (p[0] < 0x80) {
		*cpp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f, min = 0x80;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 3, cp = p[0] & 0x0f, min = 0x800;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) /* also stops at a NUL */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*cpp = cp;
	return n;
}

size_t utf8_seq_len(const char *s)
{
	uint32_t cp;

	return utf8_decode(s, strnlen(s, 4), &cp);
}

char *utf8_sanitize(const char *s)
{
	size_t len = strlen(s), i = 0, o = 0, n;
	/* At worst every byte becomes the three bytes of U+FFFD. */
	char *out = malloc(len * 3 + 1);

	if (!out)
		return NULL;
	while (s[i]) {
		n = utf8_seq_len(s + i);
		if (n) {
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(out + o, UTF8_REPLACEMENT, 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}
