// SPDX-License-Identifier: GPL-2.0
/* orderload.c: one multiset of lengths copied in a cycle or in random order, and timed so */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wl_common.h"

/*
 * Eight lengths across the size classes of a vector memcpy (below 16, 16..31, 32..63, 64..127,
 * 128..255, the loop from 256): in a cycle its size branches are predicted, in random order
 * they are not. Eight divides the recorder's run length and spacing (64 and 1024 calls), so
 * every recorded run of the cycle starts at its first length.
 */
static const size_t lens[] = { 6, 12, 24, 48, 96, 160, 240, 400 };
#define NL (sizeof(lens) / sizeof(lens[0]))
#define MAXL 400

/* The probed copy: its three arguments as memcpy's. */
__attribute__((noinline)) void *ol_copy(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	__asm__ volatile("" ::: "memory");
	return dst;
}

/* REP MOVSB through a call, as a replayed path is called. */
__attribute__((noinline)) void *ol_movsb(void *dst, const void *src, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
	return dst;
}

typedef void *(*copy_fn)(void *, const void *, size_t);
static copy_fn volatile libc_copy = memcpy; /* called, never inlined */

struct call {
	char *dst;
	const char *src;
	size_t n;
};

/*
 * Length @i of the order: the cycle's i-th, or for random order each block of NL calls a fresh
 * shuffle of the lengths (the same multiset in every block, no order in it).
 */
static void order_lengths(size_t *out, size_t nc, int random, uint64_t *s)
{
	size_t i, j, b;

	for (b = 0; b < nc; b += NL)
		for (i = 0; i < NL && b + i < nc; i++)
			out[b + i] = lens[i];
	for (b = 0; random && b + NL <= nc; b += NL)
		for (i = NL - 1; i > 0; i--) {
			size_t t = out[b + i];

			j = rng(s) % (i + 1);
			out[b + i] = out[b + j];
			out[b + j] = t;
		}
}

static int parse_order(const char *a)
{
	return !strcmp(a, "random") ? 1 : !strcmp(a, "cyclic") ? 0 : -1;
}

/* run ORDER CALLS: CALLS ol_copy calls in that order, each side at a random byte of 256 KiB;
 * print ORDER CALLS: their lengths, one a line, without copying. */
static int run(int random, size_t nc, int print)
{
	const size_t ws = 256 << 10;
	uint64_t s = 0x2545F4914F6CDD1DULL;
	size_t *len = calloc(nc, sizeof(*len)), i;
	char *dbuf = aligned_alloc(4096, ws), *sbuf = aligned_alloc(4096, ws);

	if (!len || !dbuf || !sbuf)
		return 1;
	memset(dbuf, 3, ws);
	memset(sbuf, 4, ws);
	order_lengths(len, nc, random, &s);
	for (i = 0; print && i < nc; i++)
		printf("%zu\n", len[i]);
	for (i = 0; !print && i < nc; i++)
		ol_copy(dbuf + rng(&s) % (ws - MAXL), sbuf + rng(&s) % (ws - MAXL), len[i]);
	return 0;
}

static double pass(const struct call *c, size_t nc, copy_fn fn)
{
	double t0 = now_ns();
	size_t i;

	for (i = 0; i < nc; i++)
		fn(c[i].dst, c[i].src, c[i].n);
	return (now_ns() - t0) / (double)nc;
}

/*
 * The calls of a round in the workload's own order, each side at a random byte of its @ws bytes.
 * REP MOVSB's pass and memcpy's copy the same calls; in random order each pass has an order of
 * its own (the workload's never repeats), in a cycle both keep it.
 */
static void draw(struct call *c, size_t nc, int random, char *dbuf, char *sbuf, size_t ws,
		 uint64_t *s)
{
	size_t *len = malloc(nc * sizeof(*len)), i;

	if (!len)
		exit(1);
	order_lengths(len, nc, random, s);
	for (i = 0; i < nc; i++) {
		c[i].n = len[i];
		c[i].dst = dbuf + rng(s) % (ws - MAXL);
		c[i].src = sbuf + rng(s) % (ws - MAXL);
	}
	free(len);
}

/*
 * ORDER WS ROUNDS: REP MOVSB's ns a call against the C library's memcpy on the order's calls,
 * paired in each round (the order of the two passes alternating round by round, after an
 * untimed pass of each on REP MOVSB's order). Prints the median percentage, the noise, and both ns a call (wl_report()).
 */
int main(int argc, char **argv)
{
	size_t ws, rounds, nc = 4096, r;
	struct call *c0, *c1;
	char *dbuf, *sbuf;
	double *pct, t0, t1, ns0 = 0, ns1 = 0;
	uint64_t s = 0x9E3779B97F4A7C15ULL;
	int random;

	if (argc == 4 && (!strcmp(argv[1], "run") || !strcmp(argv[1], "print")) &&
	    (random = parse_order(argv[2])) >= 0)
		return run(random, strtoul(argv[3], NULL, 0), !strcmp(argv[1], "print"));
	if (argc != 4 || (random = parse_order(argv[1])) < 0) {
		fprintf(stderr, "usage: orderload cyclic|random WS ROUNDS | run|print "
				"cyclic|random CALLS\n");
		return 2;
	}
	ws = strtoul(argv[2], NULL, 0);
	rounds = strtoul(argv[3], NULL, 0);
	c0 = calloc(nc, sizeof(*c0));
	c1 = calloc(nc, sizeof(*c1));
	dbuf = aligned_alloc(4096, ws);
	sbuf = aligned_alloc(4096, ws);
	pct = calloc(rounds, sizeof(*pct));
	if (!c0 || !c1 || !dbuf || !sbuf || !pct || rounds < 10 || ws <= 2 * MAXL)
		return 2;
	memset(dbuf, 1, ws);
	memset(sbuf, 2, ws);
	for (r = 0; r < rounds; r++) {
		draw(c0, nc, random, dbuf, sbuf, ws, &s);
		memcpy(c1, c0, nc * sizeof(*c1));
		if (random) { /* the same calls, in an order of memcpy's own */
			size_t i, j;

			for (i = nc - 1; i > 0; i--) {
				struct call t = c1[i];

				j = rng(&s) % (i + 1);
				c1[i] = c1[j];
				c1[j] = t;
			}
		}
		/*
		 * Untimed: lines and predictors warm for both, on c0's order. In random order that
		 * is not the timed memcpy pass's: a sequence timed right after it was run once is
		 * partly learnt by the branch predictor, and the workload's never repeats.
		 */
		pass(c0, nc, libc_copy);
		pass(c0, nc, ol_movsb);
		if (r & 1) {
			t1 = pass(c1, nc, libc_copy);
			t0 = pass(c0, nc, ol_movsb);
		} else {
			t0 = pass(c0, nc, ol_movsb);
			t1 = pass(c1, nc, libc_copy);
		}
		pct[r] = 100 * (t0 / t1 - 1);
		ns0 += t0;
		ns1 += t1;
	}
	wl_report(pct, rounds, ns0, ns1);
	return 0;
}
