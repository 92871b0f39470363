/* SPDX-License-Identifier: GPL-2.0 */
/* xml_escape.h: write text into an XML document safely */
#ifndef CP_XML_ESCAPE_H
#define CP_XML_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Writes @len bytes of @s: & < > " ' as entities, and U+FFFD for every byte that is not valid
 * UTF-8 or is a character XML 1.0 forbids (controls other than tab and newlines). Cut text
 * before escaping it, so that no entity is cut in half.
 */
void xml_escape(FILE *f, const char *s, size_t len);

#endif
