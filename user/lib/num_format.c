// SPDX-License-Identifier: GPL-2.0
/* num_format.c: counts with thousands separators ("12,208") and sizes ("256 KiB") for text */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "count_sum.h"
#include "num_format.h"

char *num_format(uint64_t v, char buf[NUM_FORMAT_LEN])
{
	char wide[COUNT_SUM_LEN];

	/* One digit loop for every count: count_sum's, which a 64-bit value always fits. */
	count_sum_format(v, wide);
	memcpy(buf, wide, strlen(wide) + 1);
	return buf;
}

char *num_format_bytes(uint64_t n, char *buf, size_t len)
{
	if (n >= (1ULL << 20) && !(n % (1ULL << 20)))
		snprintf(buf, len, "%llu MiB", (unsigned long long)(n >> 20));
	else if (n >= 1024 && !(n % 1024))
		snprintf(buf, len, "%llu KiB", (unsigned long long)(n >> 10));
	else
		snprintf(buf, len, "%llu B", (unsigned long long)n);
	return buf;
}
