// SPDX-License-Identifier: GPL-2.0
/* glibc_knob.c: glibc's own memcpy on a size mix, and what its REP MOVSB threshold really does */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "wl_common.h"

/*
 * copy mode: CALLS memcpy calls (glibc's, through a volatile pointer: never inlined) with
 * lengths drawn from a "size probability" table, each at random offsets in a warm working set
 * (256 KiB per side) with uniform alignment: the workload copyprof records with a uprobe on
 * glibc's implementation symbol.
 *
 * truth mode: the same calls in rounds, every threshold of T=... timed on the same chunk (each
 * pass in an order of its own: no branch predictor learns a sequence it is timed on again),
 * with glibc's own __x86_rep_movsb_threshold set to it between passes (its address: this
 * process's libc base plus knob=OFFSET, the variable's offset in libc's debug symbols): the
 * real knob in glibc's real code, the ground truth copyprof's estimate is checked against
 * (bench/glibc_truth.sh, t0039). Per threshold: the median over quiet rounds (quiet_limit) of
 * its time over the first threshold's in the same round, with a bootstrap interval, and an A/A
 * control.
 *
 * ws=BYTES sets the working set per side (256 KiB by default); walk=stream, instead of random
 * offsets, places each side's calls one after another through it (a cursor per side, a line's
 * gap between calls, wrapping at the end): "a few small buffers" is ws=8K, "streams through
 * megabytes" ws=64M walk=stream, with the same lengths (t0174 records both and checks the
 * footprint copyprof records against them).
 */

#define WS_DEFAULT (256 * 1024)
#define MAX_SIZES 70000
#define MAX_T 16
#define BOOT 1000
#define QUIET_ROUNDS 100

static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;
static unsigned char *src, *dst;
static size_t ws = WS_DEFAULT;
static int stream; /* walk=stream: each side's calls follow one another */
/* walk=stream: the next offset, destination and source; the source starts half a page on, so
 * that (dst - src) mod 4096 sits near 2048, never in the short-distance windows of 1..63 B */
static const size_t cursor_start[2] = { 0, 2048 };
static size_t cursor[2] = { 0, 2048 };
static double cdf[MAX_SIZES];
static unsigned long sizes[MAX_SIZES];
static size_t nsizes;

static double unit(uint64_t *s)
{
	return (double)(rng(s) >> 11) / 9007199254740992.0;
}

static int load_dist(const char *path)
{
	double w[MAX_SIZES], sum = 0, acc = 0;
	char line[256];
	FILE *f = fopen(path, "r");
	size_t i;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && nsizes < MAX_SIZES) {
		unsigned long s;
		double p;

		if (line[0] == '#' || sscanf(line, "%lu %lf", &s, &p) != 2 || s > ws / 2 ||
		    !(p > 0))
			continue;
		sizes[nsizes] = s;
		w[nsizes++] = p;
		sum += p;
	}
	fclose(f);
	for (i = 0; i < nsizes; i++) {
		acc += w[i] / sum;
		cdf[i] = acc;
	}
	return nsizes ? 0 : -1;
}

struct call {
	unsigned char *d;
	const unsigned char *s;
	size_t n;
};

/* walk=stream: the offset of side @side's next @n bytes, its cursor moved past them. */
static size_t stream_next(int side, size_t n)
{
	size_t *cur = &cursor[side], at;

	if (*cur + n + 128 > ws)
		*cur = cursor_start[side];
	at = *cur;
	*cur += (n + 64 + 63) & ~(size_t)63;
	return at;
}

static void draw(struct call *c, size_t k, uint64_t *seed)
{
	size_t i, lo, hi;

	for (i = 0; i < k; i++) {
		double u = unit(seed);

		for (lo = 0, hi = nsizes - 1; lo < hi;) {
			size_t mid = (lo + hi) / 2;

			if (cdf[mid] <= u)
				lo = mid + 1;
			else
				hi = mid;
		}
		c[i].n = sizes[lo];
		if (stream) {
			c[i].d = dst + stream_next(0, c[i].n) + rng(seed) % 64;
			c[i].s = src + stream_next(1, c[i].n) + rng(seed) % 64;
			continue;
		}
		c[i].d = dst + (rng(seed) % ((ws - c[i].n) / 64)) * 64 + rng(seed) % 64;
		c[i].s = src + (rng(seed) % ((ws - c[i].n) / 64)) * 64 + rng(seed) % 64;
	}
}

/* @c in a fresh order: the same calls for every threshold, never a sequence seen before */
static void permute(struct call *c, size_t k, uint64_t *seed)
{
	size_t i;

	for (i = k; i > 1; i--) {
		size_t j = rng(seed) % i;
		struct call t = c[i - 1];

		c[i - 1] = c[j];
		c[j] = t;
	}
}

static void run(const struct call *c, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		copy_fn(c[i].d, c[i].s, c[i].n);
}

static inline uint64_t tsc(void)
{
	uint32_t lo, hi, aux;

	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median of @r and its bootstrap interval, in percent. */
static void figure(const double *r, size_t n, uint64_t *seed, double *m, double *lo, double *hi)
{
	double *t = malloc(n * sizeof(*t)), meds[BOOT];
	size_t b, i;

	memcpy(t, r, n * sizeof(*t));
	*m = 100 * (median(t, n) - 1);
	for (b = 0; b < BOOT; b++) {
		for (i = 0; i < n; i++)
			t[i] = r[rng(seed) % n];
		meds[b] = median(t, n);
	}
	qsort(meds, BOOT, sizeof(*meds), cmp_d);
	*lo = 100 * (meds[BOOT / 40] - 1);
	*hi = 100 * (meds[BOOT - BOOT / 40 - 1] - 1);
	free(t);
}

/*
 * The slowest reference a quiet round may take: the tightest of 5, 10 and 25% over the fastest
 * that holds QUIET_ROUNDS rounds, else the QUIET_ROUNDS-th fastest reference. The rule copyprof's
 * paired measurement uses (docs/estimate.md), so that both sides time the same state of the host:
 * a looser window here let rounds of a disturbed core in (every T<=2112 read 3-5 points lower
 * while copyprof, timing the quiet rounds, did not move).
 */
static double quiet_limit(const double *refs, size_t rounds, double fastest)
{
	static const double ladder[] = { 0.05, 0.10, 0.25 };
	double *v, limit;
	size_t i, r, n;

	for (i = 0; i < sizeof(ladder) / sizeof(*ladder); i++) {
		for (r = n = 0; r < rounds; r++)
			n += refs[r] <= (1 + ladder[i]) * fastest;
		if (n >= QUIET_ROUNDS || n == rounds)
			return (1 + ladder[i]) * fastest;
	}
	v = malloc(rounds * sizeof(*v));
	memcpy(v, refs, rounds * sizeof(*v));
	qsort(v, rounds, sizeof(*v), cmp_d);
	limit = v[(rounds < QUIET_ROUNDS ? rounds : QUIET_ROUNDS) - 1];
	free(v);
	return limit;
}

/*
 * Pins to the quietest CPU this process may run on, as copyprof's paired measurement chooses
 * one (user/measure/paired_cpu.h): @ref's passes timed on up to 8 CPUs in turn, 2 turns of 4,
 * the fastest median; so that the knob and the measurement it checks run on a core alike.
 */
static void pin_quietest(const struct call *ref, size_t k)
{
	int cpu[8], here = sched_getcpu(), best_cpu, i;
	double t[8][8], best = INFINITY;
	size_t n = 0, c, turn, p;
	cpu_set_t allowed, set;

	sched_getaffinity(0, sizeof(allowed), &allowed);
	for (i = 0; i < CPU_SETSIZE && n < 8; i++)
		if (CPU_ISSET((here + i) % CPU_SETSIZE, &allowed))
			cpu[n++] = (here + i) % CPU_SETSIZE;
	best_cpu = n ? cpu[0] : here;
	for (turn = 0; n > 1 && turn < 2; turn++)
		for (c = 0; c < n; c++) {
			CPU_ZERO(&set);
			CPU_SET(cpu[c], &set);
			sched_setaffinity(0, sizeof(set), &set);
			run(ref, k);
			for (p = 0; p < 4; p++) {
				uint64_t t0 = tsc();

				run(ref, k);
				t[c][turn * 4 + p] = (double)(tsc() - t0);
			}
		}
	for (c = 0; n > 1 && c < n; c++) {
		double m = median(t[c], 8);

		if (m < best) {
			best = m;
			best_cpu = cpu[c];
		}
	}
	CPU_ZERO(&set);
	CPU_SET(best_cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int truth(long *knob, const uint64_t *T, size_t nt, size_t rounds, size_t k, uint64_t seed)
{
	size_t np = nt + 1, r, i, j, order[MAX_T + 1], quiet = 0;
	struct call *ch[2], *ref = calloc(k, sizeof(*ref));
	double *tick = calloc(rounds * np, sizeof(double)), *refs = calloc(rounds, sizeof(double));
	double *ratio = calloc(rounds, sizeof(double)), fastest = INFINITY, limit;

	ch[0] = calloc(k, sizeof(struct call));
	ch[1] = calloc(k, sizeof(struct call));
	draw(ref, k, &seed);
	*knob = (long)T[0];
	pin_quietest(ref, k);
	draw(ch[0], k, &seed);
	for (r = 0; r < rounds; r++) {
		struct call *cur = ch[(r + 1) % 2], *prev = ch[r % 2];
		uint64_t t0;

		draw(cur, k, &seed);
		*knob = (long)T[0];
		run(ref, k / 4);
		t0 = tsc();
		run(ref, k);
		refs[r] = (double)(tsc() - t0);
		/* policy nt is the A/A control: the first threshold once more */
		for (i = 0; i < np; i++)
			order[i] = i;
		for (i = np; i > 1; i--) {
			size_t x = rng(&seed) % i, t = order[i - 1];

			order[i - 1] = order[x];
			order[x] = t;
		}
		for (i = 0; i < np; i++) {
			size_t p = order[i];

			*knob = (long)T[p == nt ? 0 : p];
			run(prev, k < 1024 ? k : 1024);
			permute(cur, k, &seed);
			t0 = tsc();
			run(cur, k);
			tick[r * np + p] = (double)(tsc() - t0);
		}
		if (refs[r] < fastest)
			fastest = refs[r];
	}
	*knob = (long)T[0];
	limit = quiet_limit(refs, rounds, fastest);
	for (r = 0; r < rounds; r++)
		quiet += refs[r] <= limit;
	printf("rounds %zu quiet %zu chunk %zu tolerance %.3f\n", rounds, quiet, k,
	       limit / fastest - 1);
	for (j = 0; j < np; j++) {
		double m, lo, hi;
		size_t n = 0;

		for (r = 0; r < rounds; r++)
			if (refs[r] <= limit)
				ratio[n++] = tick[r * np + j] / tick[r * np];
		figure(ratio, n, &seed, &m, &lo, &hi);
		if (j == nt)
			printf("control %+.3f %+.3f %+.3f\n", m, lo, hi);
		else
			printf("T=%llu %+.3f %+.3f %+.3f\n", (unsigned long long)T[j], m, lo, hi);
	}
	return 0;
}

/* "8K", "64M", "4096": bytes, with a K, M or G multiplier. */
static size_t parse_bytes(const char *v)
{
	char *end;
	unsigned long long n = strtoull(v, &end, 0);

	switch (*end) {
	case 'K':
		return n << 10;
	case 'M':
		return n << 20;
	case 'G':
		return n << 30;
	}
	return *end ? 0 : n;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: glibc_knob dist=FILE [calls=N] [seed=S] [ws=BYTES] [walk=random|stream]\n"
		"       glibc_knob dist=FILE knob=OFFSET T=A,B,... [rounds=R] [chunk=K] "
		"[seed=S]\n"
		"  the first T is the baseline; 'never' is accepted\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long calls = 100000, rounds = 400, chunk = 4096;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	unsigned long long off = 0;
	uint64_t T[MAX_T];
	size_t nt = 0, i;
	const char *dist = NULL;
	Dl_info info;
	int a;

	for (a = 1; a < argc; a++) {
		char *v = strchr(argv[a], '=');

		if (!v)
			return usage();
		*v++ = '\0';
		if (!strcmp(argv[a], "dist"))
			dist = v;
		else if (!strcmp(argv[a], "calls"))
			calls = strtoull(v, NULL, 0);
		else if (!strcmp(argv[a], "rounds"))
			rounds = strtoull(v, NULL, 0);
		else if (!strcmp(argv[a], "chunk"))
			chunk = strtoull(v, NULL, 0);
		else if (!strcmp(argv[a], "seed"))
			seed = strtoull(v, NULL, 0) | 1;
		else if (!strcmp(argv[a], "ws"))
			ws = parse_bytes(v);
		else if (!strcmp(argv[a], "walk") && (!strcmp(v, "stream") || !strcmp(v, "random")))
			stream = !strcmp(v, "stream");
		else if (!strcmp(argv[a], "knob"))
			off = strtoull(v, NULL, 0);
		else if (!strcmp(argv[a], "T"))
			for (char *t = strtok(v, ","); t && nt < MAX_T; t = strtok(NULL, ","))
				T[nt++] = strcmp(t, "never") ? strtoull(t, NULL, 0) : UINT64_MAX;
		else
			return usage();
	}
	if (!dist || ws < 8192 || load_dist(dist) || !calls || !chunk || (off && (!nt || !rounds)))
		return usage();
	src = aligned_alloc(4096, ws);
	dst = aligned_alloc(4096, ws);
	if (!src || !dst) {
		fprintf(stderr, "glibc_knob: cannot allocate %zu bytes a side\n", ws);
		return 1;
	}
	memset(src, 1, ws);
	memset(dst, 2, ws);
	if (off) {
		if (!dladdr((void *)memcpy, &info) || !info.dli_fbase) {
			fprintf(stderr, "glibc_knob: cannot find libc's base\n");
			return 1;
		}
		return truth((long *)((char *)info.dli_fbase + off), T, nt, rounds, chunk, seed);
	}
	{
		struct call *c = calloc(4096, sizeof(*c));
		unsigned long long done = 0;

		while (done < calls) {
			size_t k = calls - done < 4096 ? calls - done : 4096;

			draw(c, k, &seed);
			run(c, k);
			done += k;
		}
		for (i = 0; i < 1; i++)
			printf("%llu calls\n", done);
	}
	return 0;
}
