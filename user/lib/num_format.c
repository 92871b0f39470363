// SPDX-License-Identifier: GPL-2.0
/* num_format.c: counts with thousands separators for text output ("12,208") */
#include <stddef.h>
#include "num_format.h"

char *num_format(uint64_t v, char buf[NUM_FORMAT_LEN])
{
	char tmp[NUM_FORMAT_LEN];
	size_t n = 0, i = 0;

	do {
		if (n && n % 3 == 0)
			tmp[i++] = ',';
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
		n++;
	} while (v);
	for (n = 0; n < i; n++)
		buf[n] = tmp[i - 1 - n];
	buf[i] = '\0';
	return buf;
}
