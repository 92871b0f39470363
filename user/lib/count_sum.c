// SPDX-License-Identifier: GPL-2.0
/* count_sum.c: sums of calls, bytes and samples over sites that never wrap (see count_sum.h) */
#include <math.h>
#include <stddef.h>
#include "count_sum.h"

static char *digits(count_sum v, char buf[COUNT_SUM_LEN], bool commas)
{
	char tmp[COUNT_SUM_LEN];
	size_t n = 0, i = 0;

	do {
		if (commas && n && n % 3 == 0)
			tmp[i++] = ',';
		tmp[i++] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
		n++;
	} while (v);
	for (n = 0; n < i; n++)
		buf[n] = tmp[i - 1 - n];
	buf[i] = '\0';
	return buf;
}

char *count_sum_format(count_sum v, char buf[COUNT_SUM_LEN])
{
	return digits(v, buf, true);
}

char *count_sum_digits(count_sum v, char buf[COUNT_SUM_LEN])
{
	return digits(v, buf, false);
}

json_object *count_sum_json(count_sum v)
{
	char buf[COUNT_SUM_LEN];

	if (count_sum_fits_u64(v))
		return json_object_new_uint64((uint64_t)v);
	return json_object_new_double_s((double)v, count_sum_digits(v, buf));
}

count_sum count_sum_from_double(double v)
{
	/* 2^128 - 1 is the most a sum can hold; NaN and negatives are no count at all. */
	if (!(v > 0))
		return 0;
	if (v >= 0x1p128)
		return ~(count_sum)0;
	return (count_sum)nearbyint(v);
}
