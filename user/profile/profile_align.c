// SPDX-License-Identifier: GPL-2.0
/* profile_align.c: a site's alignment slots, kept sparse and in slot order */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "profile_align.h"

int site_align_add(struct site_align *a, uint32_t slot, uint64_t dst, uint64_t src)
{
	struct align_count *v;
	uint32_t i;

	a->recorded = true;
	if (!dst && !src)
		return 0;
	for (i = 0; i < a->nr && a->v[i].slot < slot; i++)
		;
	if (i < a->nr && a->v[i].slot == slot) {
		a->v[i].dst += dst;
		a->v[i].src += src;
		return 0;
	}
	v = realloc(a->v, (a->nr + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	a->v = v;
	memmove(&v[i + 1], &v[i], (a->nr - i) * sizeof(*v));
	v[i] = (struct align_count){ (uint8_t)slot, dst, src };
	a->nr++;
	return 0;
}

void site_align_dense(const struct site_align *a, uint64_t *dst, uint64_t *src)
{
	uint32_t i;

	memset(dst, 0, CP_ALIGN_SLOTS * sizeof(*dst));
	memset(src, 0, CP_ALIGN_SLOTS * sizeof(*src));
	for (i = 0; i < a->nr; i++) {
		dst[a->v[i].slot] = a->v[i].dst;
		src[a->v[i].slot] = a->v[i].src;
	}
}

int site_align_set_dense(struct site_align *a, const uint64_t *dst, const uint64_t *src)
{
	uint32_t s, n = 0;
	struct align_count *v;

	for (s = 0; s < CP_ALIGN_SLOTS; s++)
		n += dst[s] || src[s];
	if (n > a->nr) {
		v = realloc(a->v, n * sizeof(*v));
		if (!v)
			return -ENOMEM;
		a->v = v;
	}
	v = a->v;
	a->nr = 0;
	a->recorded = true;
	for (s = 0; s < CP_ALIGN_SLOTS; s++)
		if (dst[s] || src[s])
			v[a->nr++] = (struct align_count){ (uint8_t)s, dst[s], src[s] };
	return 0;
}

void site_align_clear(struct site_align *a)
{
	a->nr = 0;
	a->recorded = false;
}

void site_align_free(struct site_align *a)
{
	free(a->v);
	*a = (struct site_align){ 0 };
}
