// SPDX-License-Identifier: GPL-2.0
/* spikeload.c: a size table's calls made (for a uprobe) or timed, REP MOVSB against memcpy */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "wl_common.h"

#define MAX_ROWS 8192

/* REP MOVSB through a call, as a replayed path is called. */
__attribute__((noinline)) void *sl_movsb(void *dst, const void *src, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
	return dst;
}

/* The probed copy: its three arguments as memcpy's. */
__attribute__((noinline)) void *sl_copy(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	__asm__ volatile("" ::: "memory");
	return dst;
}

typedef void *(*copy_fn)(void *, const void *, size_t);
static copy_fn volatile libc_copy = memcpy; /* called, never inlined */

struct call {
	char *dst;
	const char *src;
	size_t n;
};

static size_t len[MAX_ROWS];
static double cdf[MAX_ROWS], weight[MAX_ROWS];
static int nrows;

/* "size,count" rows (a header line and '#' comments skipped) into len[] and cdf[]. */
static int read_table(const char *path, size_t *maxl)
{
	unsigned long long s;
	double w, sum = 0;
	char line[256];
	FILE *f = fopen(path, "r");
	int k;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && nrows < MAX_ROWS) {
		if (sscanf(line, "%llu,%lf", &s, &w) != 2 || !(w > 0))
			continue;
		len[nrows] = s;
		weight[nrows] = w;
		sum += w;
		cdf[nrows++] = sum;
		*maxl = s > *maxl ? s : *maxl;
	}
	fclose(f);
	for (k = 0; k < nrows; k++)
		cdf[k] /= sum;
	return nrows ? 0 : -1;
}

static size_t draw_len(uint64_t *s)
{
	double u = (double)(rng(s) >> 11) / 9007199254740992.0;
	int lo = 0, hi = nrows - 1;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (cdf[mid] <= u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return len[lo];
}

/* Lengths from the table, each side at a random byte of its @ws bytes, independently. */
static void draw(struct call *c, size_t nc, char *dbuf, char *sbuf, size_t ws, size_t maxl,
		 uint64_t *s)
{
	size_t i;

	for (i = 0; i < nc; i++) {
		c[i].n = draw_len(s);
		c[i].dst = dbuf + rng(s) % (ws - maxl);
		c[i].src = sbuf + rng(s) % (ws - maxl);
	}
}

/* The same calls in another order. */
static void shuffle(struct call *to, const struct call *from, size_t nc, uint64_t *s)
{
	size_t i;

	memcpy(to, from, nc * sizeof(*to));
	for (i = nc - 1; i > 0; i--) {
		size_t j = rng(s) % (i + 1);
		struct call t = to[i];

		to[i] = to[j];
		to[j] = t;
	}
}

static double pass(const struct call *c, size_t nc, copy_fn fn)
{
	double t0 = now_ns();
	size_t i;

	for (i = 0; i < nc; i++)
		fn(c[i].dst, c[i].src, c[i].n);
	return (now_ns() - t0) / (double)nc;
}

/* run TABLE: every row's count of sl_copy calls of its size, all rows' calls shuffled. */
static int run(const char *path)
{
	size_t maxl = 0, total = 0, i = 0, j;
	uint64_t s = 0x2545F4914F6CDD1DULL;
	size_t *order;
	char *buf;
	int k;

	if (read_table(path, &maxl))
		return 2;
	for (k = 0; k < nrows; k++)
		total += (size_t)weight[k];
	order = calloc(total, sizeof(*order));
	buf = aligned_alloc(4096, 2 * maxl + 8192);
	if (!order || !buf)
		return 1;
	memset(buf, 3, 2 * maxl + 8192);
	for (k = 0; k < nrows; k++)
		for (j = 0; j < (size_t)weight[k]; j++)
			order[i++] = len[k];
	for (i = total - 1; i > 0; i--) {
		size_t t = order[i];

		j = rng(&s) % (i + 1);
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < total; i++)
		sl_copy(buf + maxl + 4096, buf, order[i]);
	return 0;
}

/*
 * TABLE WS ROUNDS: REP MOVSB's ns a call against the C library's memcpy on calls drawn from the
 * size table, paired in each round (the same calls, each pass in an order of its own, the
 * order of the two alternating round by round, after an untimed pass of both in REP MOVSB's
 * order). Prints the median of the rounds' percentages, half the spread of the medians of 5
 * blocks, and both ns a call.
 */
int main(int argc, char **argv)
{
	size_t ws, rounds, nc = 4096, maxl = 0, r;
	struct call *c0, *c1;
	char *dbuf, *sbuf;
	double *pct, t0, t1, ns0 = 0, ns1 = 0;
	uint64_t s = 0x9E3779B97F4A7C15ULL;

	if (argc == 3 && !strcmp(argv[1], "run"))
		return run(argv[2]);
	if (argc != 4 || read_table(argv[1], &maxl)) {
		fprintf(stderr,
			"usage: spikeload TABLE WS ROUNDS | run TABLE (TABLE: size,count rows)\n");
		return 2;
	}
	ws = strtoul(argv[2], NULL, 0);
	rounds = strtoul(argv[3], NULL, 0);
	c0 = calloc(nc, sizeof(*c0));
	c1 = calloc(nc, sizeof(*c1));
	dbuf = aligned_alloc(4096, ws);
	sbuf = aligned_alloc(4096, ws);
	pct = calloc(rounds, sizeof(*pct));
	if (!c0 || !c1 || !dbuf || !sbuf || !pct || rounds < 10 || ws <= 2 * maxl)
		return 2;
	memset(dbuf, 1, ws);
	memset(sbuf, 2, ws);
	for (r = 0; r < rounds; r++) {
		draw(c0, nc, dbuf, sbuf, ws, maxl, &s);
		shuffle(c1, c0, nc, &s);
		/*
		 * Untimed: lines and predictors warm for both, on REP MOVSB's order, not on the timed
		 * memcpy pass's: a sequence timed right after it ran once is partly learnt by the
		 * branch predictor (memcpy's size branches), and made REP MOVSB read 2-4 points
		 * dearer against memcpy here than in the replay, which never repeats an order.
		 */
		pass(c0, nc, libc_copy);
		pass(c0, nc, sl_movsb);
		if (r & 1) {
			t1 = pass(c1, nc, libc_copy);
			t0 = pass(c0, nc, sl_movsb);
		} else {
			t0 = pass(c0, nc, sl_movsb);
			t1 = pass(c1, nc, libc_copy);
		}
		pct[r] = 100 * (t0 / t1 - 1);
		ns0 += t0;
		ns1 += t1;
	}
	wl_report(pct, rounds, ns0, ns1);
	return 0;
}
