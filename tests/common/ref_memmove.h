/* SPDX-License-Identifier: GPL-2.0 */
/* ref_memmove.h: the byte-at-a-time reference every asm-ref replica is checked against */
#ifndef CP_REF_MEMMOVE_H
#define CP_REF_MEMMOVE_H

#include <stddef.h>
#include <stdint.h>

/* memmove semantics, one byte at a time: forward when dst is below src, else backward. */
static inline void ref_memmove(uint8_t *d, const uint8_t *s, size_t n)
{
	size_t i;

	if (d < s)
		for (i = 0; i < n; i++)
			d[i] = s[i];
	else
		for (i = n; i > 0; i--)
			d[i - 1] = s[i - 1];
}

#endif
