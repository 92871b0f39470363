// SPDX-License-Identifier: GPL-2.0
/* estimate_digest.c: the digest of a family's recorded mix, which paired measurements are filed by */
#include <stdio.h>
#include <string.h>
#include "estimate_digest.h"
#include "estimate_exact.h"
#include "lib/fnv.h"
#include "profile/profile_align.h"
#include "profile/profile_dist.h"
#include "profile/profile_order.h"

static uint64_t add(uint64_t h, const char *key, double a, double b)
{
	char buf[80];

	/* 9 digits: the same profile always prints the same. */
	snprintf(buf, sizeof(buf), "|%s:%.9g:%.9g", key, a, b);
	return fnv1a64_str(h, buf);
}

static double row_calls(const double *c)
{
	double n = 0;
	int k;

	for (k = 0; k < CP_NR_DIST; k++)
		n += c[k];
	return n;
}

void est_mix_digest(const struct est_input *in, enum copy_family f, const char *today,
		    uint64_t knob, const struct est_options *o, char *out, size_t len)
{
	double n[CP_NBUCKETS] = { 0 }, bytes[CP_NBUCKETS] = { 0 }, dst[64], src[64];
	double dist[CP_NBUCKETS * CP_NR_DIST];
	bool sampled = false;
	uint64_t h = FNV1A64_INIT;
	char key[32];
	size_t i;
	uint32_t k;
	int b;

	for (i = 0; i < in->nr_sites; i++) {
		const struct est_site *s = &in->sites[i];

		if (s->family != f)
			continue;
		sampled |= s->time_weighted;
		for (k = 0; k < s->nr_buckets; k++) {
			n[s->buckets[k].b] += s->buckets[k].n;
			bytes[s->buckets[k].b] += s->buckets[k].bytes;
		}
	}
	h = fnv1a64_str(h, est_family(f)->name);
	h = fnv1a64_str(h, sampled ? "|time|" : "|calls|");
	h = fnv1a64_str(h, today ? today : "?");
	if (knob != UINT64_MAX) { /* glibc's: today's code is its replica at this threshold */
		snprintf(key, sizeof(key), "|T%llu", (unsigned long long)knob);
		h = fnv1a64_str(h, key);
	}
	h = fnv1a64_str(h, "|");
	h = fnv1a64_str(h, o->cache.label);
	for (b = 0; b < CP_NBUCKETS; b++) {
		if (!(n[b] > 0))
			continue;
		snprintf(key, sizeof(key), "b%d", b);
		h = add(h, key, n[b], bytes[b]);
	}
	if (est_family_alignments(in, f, dst, src))
		for (b = 0; b < 64; b++) {
			snprintf(key, sizeof(key), "a%d", b);
			h = add(h, key, dst[b], src[b]);
		}
	/* Profiles without distances keep the digests they had. */
	if (est_family_distances(in, f, dist))
		for (b = 0; b < CP_NBUCKETS; b++) {
			const double *c = &dist[b * CP_NR_DIST];

			if (!(row_calls(c) > 0))
				continue;
			snprintf(key, sizeof(key), "d%d", b);
			h = add(h, key, c[CP_DIST_ZERO], c[CP_DIST_AHEAD]);
			h = add(h, key, c[CP_DIST_BEHIND], c[CP_DIST_OTHER]);
			/* Only where present: rows without such calls keep their digests. */
			if (c[CP_DIST_ALIGNED_64] > 0) {
				snprintf(key, sizeof(key), "d%d.aligned_64", b);
				h = add(h, key, c[CP_DIST_ALIGNED_64], 0);
			}
		}
	/* Exact lengths (a size table's) only where present: profiles keep their digests. */
	for (i = 0; i < in->nr_sites; i++) {
		const struct est_site *s = &in->sites[i];

		for (k = 0; s->family == f && k < s->nr_exact; k++) {
			snprintf(key, sizeof(key), "x%llu", (unsigned long long)s->exact[k].len);
			h = add(h, key, s->exact[k].n, 0);
		}
	}
	/* Recorded call order only where present: profiles without it keep their digests. */
	for (i = 0; i < in->nr_sites; i++) {
		const struct est_site *s = &in->sites[i];
		uint32_t r, j;

		for (r = 0; s->family == f && s->order && r < s->order->nr; r++)
			for (j = 0; j < s->order->runs[r].nr; j++) {
				snprintf(key, sizeof(key), "o%u.%u", r, j);
				h = add(h, key, (double)s->order->runs[r].len[j], 0);
			}
	}
	snprintf(out, len, "%016llx", (unsigned long long)h);
}

bool est_family_alignments(const struct est_input *in, enum copy_family f, double *dst, double *src)
{
	bool any = false;
	size_t i;
	int k;

	memset(dst, 0, 64 * sizeof(*dst));
	memset(src, 0, 64 * sizeof(*src));
	for (i = 0; i < in->nr_sites; i++) {
		const struct est_site *s = &in->sites[i];

		if (s->family != f || !s->align)
			continue;
		/* The profile keeps the non-zero slots only (profile_align.h). */
		for (k = 0; k < (int)s->align->nr; k++) {
			const struct align_count *a = &s->align->v[k];

			dst[a->slot] += (double)a->dst;
			src[a->slot] += (double)a->src;
			any |= a->dst || a->src;
		}
	}
	return any;
}

bool est_family_distances(const struct est_input *in, enum copy_family f, double *dist)
{
	bool any = false;
	size_t i;
	uint32_t k;
	int c;

	memset(dist, 0, CP_NBUCKETS * CP_NR_DIST * sizeof(*dist));
	for (i = 0; i < in->nr_sites; i++) {
		const struct est_site *s = &in->sites[i];

		if (s->family != f || !s->dist)
			continue;
		any = true;
		for (k = 0; k < s->dist->nr; k++)
			for (c = 0; c < CP_NR_DIST; c++)
				dist[s->dist->v[k].bucket * CP_NR_DIST + c] +=
					(double)s->dist->v[k].c[c];
	}
	return any;
}
