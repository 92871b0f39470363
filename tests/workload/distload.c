// SPDX-License-Identifier: GPL-2.0
/* distload.c: copies of known lengths at a known (dst - src) mod 4096, and a paired timing of them */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "wl_common.h"

#define PAGE 4096
#define LINE 64

/* The probed copy: its three arguments as memcpy's. */
__attribute__((noinline)) void *dl_copy(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	__asm__ volatile("" ::: "memory");
	return dst;
}

/* REP MOVSB through a call, as a replayed path is called. */
__attribute__((noinline)) void *dl_movsb(void *dst, const void *src, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
	return dst;
}

struct call {
	char *dst;
	const char *src;
	size_t n;
};

/*
 * Calls of the lengths @len (@nl of them, equal shares) between random lines of @ws bytes a side,
 * the destination at @dist from the source modulo 4096.
 */
static void draw(struct call *c, size_t nc, const size_t *len, int nl, char *dbuf, char *sbuf,
		 size_t ws, unsigned int dist, uint64_t *s)
{
	size_t i, maxl = 0;
	int k;

	for (k = 0; k < nl; k++)
		maxl = len[k] > maxl ? len[k] : maxl;
	for (i = 0; i < nc; i++) {
		size_t so = (rng(s) % ((ws - maxl - PAGE) / LINE)) * LINE;
		size_t dp = rng(s) % ((ws - maxl - PAGE) / PAGE);

		c[i].n = len[i % nl];
		c[i].src = sbuf + so;
		c[i].dst = dbuf + dp * PAGE + ((so + dist) & (PAGE - 1));
	}
}

static double pass(const struct call *c, size_t nc)
{
	double t0 = now_ns();
	size_t i;

	for (i = 0; i < nc; i++)
		dl_movsb(c[i].dst, c[i].src, c[i].n);
	return (now_ns() - t0) / (double)nc;
}

/*
 * time WS ROUNDS DIST LEN...: REP MOVSB's ns a call at DIST against at 0, paired and
 * interleaved (the order alternating round by round), each round on fresh random lines.
 * Prints the median of the rounds' percentages and the spread of the medians of 5 blocks.
 */
static int timing(int argc, char **argv)
{
	size_t ws = strtoul(argv[2], NULL, 0), rounds = strtoul(argv[3], NULL, 0), len[16];
	unsigned int dist = (unsigned int)strtoul(argv[4], NULL, 0);
	int nl = 0, k;
	size_t nc = 1024, r;
	struct call *c0 = calloc(nc, sizeof(*c0)), *c1 = calloc(nc, sizeof(*c1));
	char *dbuf = aligned_alloc(PAGE, ws), *sbuf = aligned_alloc(PAGE, ws);
	double *pct = calloc(rounds, sizeof(double)), t0, t1, ns0 = 0, ns1 = 0;
	uint64_t s = 0x9E3779B97F4A7C15ULL;

	for (k = 5; k < argc && nl < 16; k++)
		len[nl++] = strtoul(argv[k], NULL, 0);
	if (!nl || !c0 || !c1 || !dbuf || !sbuf || !pct || rounds < 10)
		return 2;
	memset(dbuf, 1, ws);
	memset(sbuf, 2, ws);
	for (r = 0; r < rounds; r++) {
		draw(c0, nc, len, nl, dbuf, sbuf, ws, 0, &s);
		draw(c1, nc, len, nl, dbuf, sbuf, ws, dist, &s);
		pass(c0, nc); /* warm the lines and the predictor on both */
		pass(c1, nc);
		if (r & 1) {
			t1 = pass(c1, nc);
			t0 = pass(c0, nc);
		} else {
			t0 = pass(c0, nc);
			t1 = pass(c1, nc);
		}
		pct[r] = 100 * (t1 / t0 - 1);
		ns0 += t0;
		ns1 += t1;
	}
	wl_report(pct, rounds, ns0, ns1);
	return 0;
}

int main(int argc, char **argv)
{
	char *buf;
	int i;

	if (argc >= 6 && !strcmp(argv[1], "time"))
		return timing(argc, argv);
	/* LEN:COUNT:DIST...: COUNT dl_copy calls of LEN bytes, dst at DIST from src mod 4096 */
	buf = aligned_alloc(PAGE, 4 << 20);
	if (!buf)
		return 1;
	memset(buf, 3, 4 << 20);
	for (i = 1; i < argc; i++) {
		unsigned long n, count, dist, k;

		if (sscanf(argv[i], "%lu:%lu:%lu", &n, &count, &dist) != 3 || n > (1 << 20) ||
		    dist >= PAGE)
			return 2;
		for (k = 0; k < count; k++)
			dl_copy(buf + (2 << 20) + LINE * (k % 16) + dist, buf + LINE * (k % 16), n);
	}
	return 0;
}
