/* SPDX-License-Identifier: GPL-2.0 */
/* fnv.h: the 64-bit FNV-1a hash, for digests and hash tables */
#ifndef CP_FNV_H
#define CP_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A64_INIT 0xcbf29ce484222325ULL

/* @h extended by the bytes of @s up to its NUL. */
static inline uint64_t fnv1a64_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
	return h;
}

#endif
