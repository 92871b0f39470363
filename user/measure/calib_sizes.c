// SPDX-License-Identifier: GPL-2.0
/* calib_sizes.c: size lists for calibrate (default, quick, parsed from --sizes) */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calib_sizes.h"
#include "lib/hist.h"

#define MAX_SIZES 100000 /* so that "1-1G" is refused rather than measured for a week */

static int push(struct calib_sizes *s, uint64_t v)
{
	uint64_t *p;

	if (s->n % 256 == 0) {
		p = realloc(s->v, (s->n + 256) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->v = p;
	}
	s->v[s->n++] = v;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void sort_unique(struct calib_sizes *s)
{
	size_t i, j = 0;

	qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
	for (i = 0; i < s->n; i++)
		if (!j || s->v[i] != s->v[j - 1])
			s->v[j++] = s->v[i];
	s->n = j;
}

int calib_sizes_default(struct calib_sizes *s)
{
	uint64_t v;
	uint32_t b;

	memset(s, 0, sizeof(*s));
	for (v = 1; v <= 256; v++)
		if (push(s, v))
			return -ENOMEM;
	for (b = 0; b < CP_OVERFLOW_BUCKET; b++) {
		v = hist_bucket_lo(b);
		if (v > 256 && v <= (1u << 20) && push(s, v))
			return -ENOMEM;
	}
	sort_unique(s);
	return 0;
}

int calib_sizes_quick(struct calib_sizes *s)
{
	static const uint64_t quick[] = { 8,	16,   32,   64,	   128,	  256,	  512,	  1024,
					  2048, 4096, 8192, 16384, 65536, 262144, 1048576 };
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < sizeof(quick) / sizeof(*quick); i++)
		if (push(s, quick[i]))
			return -ENOMEM;
	return 0;
}

/* One size with an optional K/M/G suffix; *end is left after it. */
static int parse_one(const char *p, const char **end, uint64_t *out, char *why, size_t whylen)
{
	unsigned long long v;
	char *e;

	if (!isdigit((unsigned char)*p)) {
		snprintf(why, whylen, "'%s' is not a size", p);
		return -EINVAL;
	}
	errno = 0;
	v = strtoull(p, &e, 10);
	switch (toupper((unsigned char)*e)) {
	case 'K':
		v = v > CALIB_SIZE_MAX ? ~0ULL : v << 10;
		e++;
		break;
	case 'M':
		v = v > CALIB_SIZE_MAX ? ~0ULL : v << 20;
		e++;
		break;
	case 'G':
		v = v > CALIB_SIZE_MAX ? ~0ULL : v << 30;
		e++;
		break;
	}
	if (errno || v == 0 || v > CALIB_SIZE_MAX) {
		snprintf(why, whylen, "size '%.*s' is out of range: sizes go from 1 byte to 1G",
			 (int)(e - p), p);
		return -EINVAL;
	}
	*out = v;
	*end = e;
	return 0;
}

int calib_sizes_parse(const char *list, struct calib_sizes *s, char *why, size_t whylen)
{
	const char *p = list;
	uint64_t a, b;
	int err;

	memset(s, 0, sizeof(*s));
	while (*p) {
		err = parse_one(p, &p, &a, why, whylen);
		b = a;
		if (!err && *p == '-')
			err = parse_one(p + 1, &p, &b, why, whylen);
		if (!err && b < a) {
			snprintf(why, whylen, "range %llu-%llu goes downwards",
				 (unsigned long long)a, (unsigned long long)b);
			err = -EINVAL;
		}
		if (!err && *p && *p != ',') {
			snprintf(why, whylen, "unexpected '%s' after a size", p);
			err = -EINVAL;
		}
		if (!err && b - a >= MAX_SIZES) {
			snprintf(why, whylen, "range %llu-%llu holds more than %d sizes",
				 (unsigned long long)a, (unsigned long long)b, MAX_SIZES);
			err = -EINVAL;
		}
		for (; !err && a <= b; a++)
			err = push(s, a);
		if (!err && s->n > MAX_SIZES) {
			snprintf(why, whylen, "more than %d sizes", MAX_SIZES);
			err = -EINVAL;
		}
		if (err) {
			calib_sizes_free(s);
			return err;
		}
		if (*p == ',')
			p++;
	}
	if (!s->n) {
		snprintf(why, whylen, "no sizes given");
		return -EINVAL;
	}
	sort_unique(s);
	return 0;
}

void calib_sizes_free(struct calib_sizes *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}
