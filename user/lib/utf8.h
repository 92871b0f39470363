/* SPDX-License-Identifier: GPL-2.0 */
/* utf8.h: the UTF-8 that export formats require, from names that are only bytes (paths, symbols) */
#ifndef CP_UTF8_H
#define CP_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The replacement character U+FFFD, written for each byte that starts no valid sequence. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * Length (1-4) of the valid UTF-8 sequence at @s, of at most @len bytes, with its code point in
 * *@cp; 0 if @s starts none (a stray continuation byte, an overlong form, a surrogate, past
 * U+10FFFF, or cut short).
 */
size_t utf8_decode(const char *s, size_t len, uint32_t *cp);
/* utf8_decode() of a NUL-terminated string. */
size_t utf8_seq_len(const char *s);
/* A malloc()ed copy of @s with every invalid byte replaced by U+FFFD; NULL without memory. */
char *utf8_sanitize(const char *s);

#endif
