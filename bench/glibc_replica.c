// SPDX-License-Identifier: GPL-2.0
/* glibc_replica.c: a glibc replica against glibc's own implementation, interleaved, per length class */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <gelf.h>

#include "asmref_glibc.h"
#include "lib/elf_symbols.h"
#include "lib/elfsyms.h"

/*
 * usage: glibc_replica REPLICA ROUNDS WORKLOAD...
 *   REPLICA   glibc_memmove_avx512, glibc_memset_evex, ... (glibc's implementation of the
 *             same name is called directly, whichever one this CPU's resolver picks)
 *   WORKLOAD  fleet:FILE (a fleetbench "size probability" table), uniform:A-B, fixed:N
 * Both run with the thresholds glibc's own variables hold in this process (GLIBC_TUNABLES
 * sets them), on the same lengths and offsets. Each round times every length class of a
 * workload for both, in alternating order (ABAB/BABA), and keeps replica/glibc; the lines
 * give the median ratio and its 10th..90th percentile over the rounds. "all, A/A" times glibc
 * against itself on the mix: what a ratio of code that costs the same looks like in this run.
 */

#define BUF (16u << 20) /* lengths up to BUF / 4, offsets within 1 MiB */
#define CALLS 4096
#define CHUNK_BYTES (64u << 20)
#define MAX_ROUNDS 10000

typedef void *copy_fn(void *, const void *, size_t);
typedef void *set_fn(void *, int, size_t);

struct seq {
	size_t n;
	uint32_t len[CALLS];
	uint32_t doff[CALLS], soff[CALLS];
};

static uint8_t *dst_buf, *src_buf;
static bool is_set;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ull;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double run(void *fn, const struct seq *s)
{
	double t0 = now_ns();
	size_t i;

	if (is_set)
		for (i = 0; i < s->n; i++)
			((set_fn *)fn)(dst_buf + s->doff[i], (int)i, s->len[i]);
	else
		for (i = 0; i < s->n; i++)
			((copy_fn *)fn)(dst_buf + s->doff[i], src_buf + s->soff[i], s->len[i]);
	return now_ns() - t0;
}

/* Length classes: glibc's paths at VEC and T (the ranges say which code a length takes). */
struct lclass {
	const char *name;
	uint64_t lo, hi; /* inclusive */
};

static size_t classes(int vec, const struct asmref_glibc_knobs *k, struct lclass *c)
{
	uint64_t v = (uint64_t)vec, t = is_set ? k->rep_stosb_threshold : k->rep_movsb_threshold;
	uint64_t stop = is_set ? UINT64_MAX : k->rep_movsb_stop_threshold;
	size_t n = 0;

	if (t < 8 * v)
		t = 8 * v; /* as glibc: T below its minimum is not taken */
	c[n++] = (struct lclass){ "0..VEC-1", 0, v - 1 };
	c[n++] = (struct lclass){ "VEC..2VEC", v, 2 * v };
	c[n++] = (struct lclass){ "2VEC+1..8VEC", 2 * v + 1, 8 * v };
	if (t > 8 * v)
		c[n++] = (struct lclass){ "8VEC+1..T", 8 * v + 1, t };
	if (t < UINT64_MAX && stop > t + 1)
		c[n++] = (struct lclass){ is_set ? "T+1.." : "T+1..stop-1", t + 1, stop - 1 };
	if (t < UINT64_MAX && stop < UINT64_MAX)
		c[n++] = (struct lclass){ "stop..", stop > t ? stop : t + 1, UINT64_MAX };
	return n;
}

/* At most CHUNK_BYTES per timed chunk (at least 16 calls): rounds of MiB-long copies stay short. */
static void trim(struct seq *s)
{
	uint64_t bytes = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		bytes += s->len[i];
		if (bytes > CHUNK_BYTES && i >= 16)
			break;
	}
	s->n = i;
}

/* An index drawn from the cumulative distribution @cdf of @n entries. */
static size_t pick(const double *cdf, size_t n)
{
	double u = (double)(next() >> 11) / 9007199254740992.0;
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Draws a workload's lengths into the mix and into the sequence of each class. */
static int draw(const char *spec, struct lclass *cl, size_t nc, struct seq *seqs, struct seq *all)
{
	static double cdf[65536];
	static uint32_t sizes[65536];
	size_t nsz = 0, i, c;
	unsigned long a = 0, b = 0;

	if (!strncmp(spec, "fleet:", 6)) {
		FILE *f = fopen(spec + 6, "r");
		char line[256];
		double acc = 0;

		if (!f) {
			fprintf(stderr, "glibc_replica: %s: %s\n", spec + 6, strerror(errno));
			return -1;
		}
		while (fgets(line, sizeof(line), f) && nsz < 65536) {
			unsigned long s;
			double p;

			if (line[0] == '#' || sscanf(line, "%lu %lf", &s, &p) != 2 || s > BUF / 4)
				continue;
			acc += p;
			cdf[nsz] = acc;
			sizes[nsz++] = (uint32_t)s;
		}
		fclose(f);
		if (!nsz)
			return -1;
		for (i = 0; i < nsz; i++)
			cdf[i] /= acc;
	} else if (sscanf(spec, "uniform:%lu-%lu", &a, &b) == 2 && a <= b && b <= BUF / 4) {
		nsz = 0;
	} else if (sscanf(spec, "fixed:%lu", &a) == 1 && a <= BUF / 4) {
		b = a;
	} else {
		fprintf(stderr, "glibc_replica: bad workload '%s'\n", spec);
		return -1;
	}
	memset(all, 0, sizeof(*all));
	for (c = 0; c < nc; c++)
		seqs[c].n = 0;
	/*
	 * CALLS draws make the mix ("all"); each class gets its own CALLS / 4 draws from the
	 * same distribution restricted to it (draws outside it are dropped; a class the
	 * distribution hardly reaches stays short after 2^22 tries).
	 */
	for (i = 0; i < (1u << 22); i++) {
		uint64_t len = nsz ? sizes[pick(cdf, nsz)] : a + next() % (b - a + 1);
		/* Offsets within 1 MiB plus any misalignment: the same for both implementations. */
		uint32_t doff = (uint32_t)(next() % (1u << 20)),
			 soff = (uint32_t)(next() % (1u << 20));
		bool more = all->n < CALLS;

		if (all->n < CALLS) {
			all->len[all->n] = (uint32_t)len;
			all->doff[all->n] = doff;
			all->soff[all->n++] = soff;
		}
		for (c = 0; c < nc; c++) {
			struct seq *q = &seqs[c];

			if (q->n < CALLS / 4)
				more = true;
			if (q->n < CALLS / 4 && len >= cl[c].lo && len <= cl[c].hi) {
				q->len[q->n] = (uint32_t)len;
				q->doff[q->n] = doff;
				q->soff[q->n++] = soff;
			}
		}
		if (!more)
			break;
	}
	trim(all);
	for (c = 0; c < nc; c++)
		trim(&seqs[c]);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(double *v, size_t n, double p)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[(size_t)(p * (double)(n - 1) + 0.5)];
}

/* ROUNDS interleaved rounds of @s; prints one line. */
static void measure(const char *work, const char *cls, void *g, void *r, const struct seq *s,
		    int rounds)
{
	static double ratio[MAX_ROUNDS], gns[MAX_ROUNDS];
	int i;

	if (!s->n)
		return; /* the workload has no length in this class */
	run(g, s);
	run(r, s);
	for (i = 0; i < rounds; i++) {
		double tg, tr;

		if (i & 1) {
			tg = run(g, s);
			tr = run(r, s);
		} else {
			tr = run(r, s);
			tg = run(g, s);
		}
		ratio[i] = tr / tg;
		gns[i] = tg / (double)s->n;
	}
	printf("%-28s %-14s %6zu %9.3f %8.3f..%-8.3f %10.2f\n", work, cls, s->n,
	       pct(ratio, (size_t)rounds, 0.5), pct(ratio, (size_t)rounds, 0.1),
	       pct(ratio, (size_t)rounds, 0.9), pct(gns, (size_t)rounds, 0.5));
}

static uint64_t glibc_var(struct elf_symbols *syms, uintptr_t bias, const char *name)
{
	struct elf_symbol o;

	return elf_symbols_object(syms, name, &o) ? *(volatile uint64_t *)(bias + o.sym.st_value)
						  : 0;
}

int main(int argc, char **argv)
{
	static struct seq seqs[8], all;
	void *(*volatile mm)(void *, const void *, size_t) = memmove;
	const struct asmref_impl *impl;
	struct asmref_glibc_knobs k = { 0 };
	struct lclass cl[8];
	char gname[96], *libc;
	struct elf_symbols syms;
	struct elf_symbol f;
	size_t nc, c;
	Dl_info info;
	cpu_set_t one;
	int rounds, i, vec, fd;
	Elf *elf;

	if (argc < 4 || !(impl = asmref_find(argv[1])) || strncmp(argv[1], "glibc_", 6) ||
	    (rounds = atoi(argv[2])) < 3 || rounds > MAX_ROUNDS) {
		fprintf(stderr,
			"usage: glibc_replica glibc_REPLICA ROUNDS(3-%d) "
			"{fleet:FILE|uniform:A-B|fixed:N}...\n",
			MAX_ROUNDS);
		return 2;
	}
	if (!asmref_usable(impl)) {
		printf("skipped: this CPU cannot run %s\n", impl->name);
		return 0;
	}
	is_set = impl->kind == ASMREF_SET;
	vec = strstr(impl->name, "avx512") ? 64 : 32;
	/* glibc's name for the same variant: glibc_memmove_avx2 -> __memmove_avx_unaligned_erms. */
	snprintf(gname, sizeof(gname), "__%s_%s%s_unaligned_erms%s", is_set ? "memset" : "memmove",
		 strstr(impl->name, "avx512") ? "avx512"
		 : strstr(impl->name, "evex") ? "evex"
		 : is_set		      ? "avx2"
					      : "avx",
		 "", strstr(impl->name, "_rtm") ? "_rtm" : "");
	if (!dladdr((void *)mm, &info) || !(libc = elfsyms_find_file(info.dli_fname)))
		return 1;
	fd = open(libc, O_RDONLY);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	elf_symbols_init(&syms, libc, elf);
	if (!elf_symbols_by_name(&syms, gname, &f)) {
		printf("skipped: %s has no %s (install libc6-dbg)\n", libc, gname);
		return 0;
	}
	if (asmref_glibc_replica_of(gname) != impl) {
		fprintf(stderr, "glibc_replica: %s is not the replica of %s\n", impl->name, gname);
		return 1;
	}
	k.rep_movsb_threshold =
		glibc_var(&syms, (uintptr_t)info.dli_fbase, "__x86_rep_movsb_threshold");
	k.rep_movsb_stop_threshold =
		glibc_var(&syms, (uintptr_t)info.dli_fbase, "__x86_rep_movsb_stop_threshold");
	k.non_temporal_threshold =
		glibc_var(&syms, (uintptr_t)info.dli_fbase, "__x86_shared_non_temporal_threshold");
	k.rep_stosb_threshold =
		glibc_var(&syms, (uintptr_t)info.dli_fbase, "__x86_rep_stosb_threshold");
	{
		struct elf_symbol sc;

		if (elf_symbols_object(&syms, "__x86_string_control", &sc))
			k.string_control =
				*(volatile uint32_t *)((uintptr_t)info.dli_fbase + sc.sym.st_value);
	}
	asmref_glibc_set_knobs(&k);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	sched_setaffinity(0, sizeof(one), &one);
	dst_buf = aligned_alloc(4096, BUF);
	src_buf = aligned_alloc(4096, BUF);
	if (!dst_buf || !src_buf)
		return 1;
	memset(dst_buf, 1, BUF);
	memset(src_buf, 2, BUF);
	printf("# %s against %s at T %#llx, stop %#llx, non-temporal %#llx, stosb %#llx, "
	       "CPU %d, %d rounds\n",
	       impl->name, gname, (unsigned long long)k.rep_movsb_threshold,
	       (unsigned long long)k.rep_movsb_stop_threshold,
	       (unsigned long long)k.non_temporal_threshold,
	       (unsigned long long)k.rep_stosb_threshold, sched_getcpu(), rounds);
	printf("%-28s %-14s %6s %9s %-18s %10s\n", "# workload", "class", "calls", "ratio",
	       "p10..p90", "glibc ns");
	nc = classes(vec, &k, cl);
	for (i = 3; i < argc; i++) {
		const char *w = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];

		if (draw(argv[i], cl, nc, seqs, &all))
			return 2;
		for (c = 0; c < nc; c++)
			measure(w, cl[c].name, (void *)((uintptr_t)info.dli_fbase + f.sym.st_value),
				impl->fn, &seqs[c], rounds);
		measure(w, "all", (void *)((uintptr_t)info.dli_fbase + f.sym.st_value), impl->fn,
			&all, rounds);
		/* The control: glibc against itself on the mix, the noise floor of this run. */
		measure(w, "all, A/A", (void *)((uintptr_t)info.dli_fbase + f.sym.st_value),
			(void *)((uintptr_t)info.dli_fbase + f.sym.st_value), &all, rounds);
	}
	elf_symbols_release(&syms);
	elf_end(elf);
	close(fd);
	return 0;
}
