// SPDX-License-Identifier: GPL-2.0
/* copyload.c: a workload with out-of-line copy and clear functions called with known lengths */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUF_SIZE (1 << 20)
#define MAX_SIZES 65536

static unsigned char src_buf[BUF_SIZE + 64] __attribute__((aligned(64)));
static unsigned char dst_buf[BUF_SIZE + 64] __attribute__((aligned(64)));
static unsigned long used[BUF_SIZE + 1]; /* calls per size, for log=FILE */

/* memcpy-like: the length is argument 3. noinline keeps a real call for the uprobe. */
__attribute__((noinline)) void *wl_copy(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	__asm__ volatile("" ::: "memory");
	return dst;
}

/* memmove within one buffer (dst = src + 1): glibc serves memcpy and memmove with one code. */
__attribute__((noinline)) void *wl_move(void *dst, const void *src, size_t n)
{
	memmove(dst, src, n);
	__asm__ volatile("" ::: "memory");
	return dst;
}

/* clear_user-like: the length is argument 2. */
__attribute__((noinline)) size_t wl_clear(void *dst, size_t n)
{
	memset(dst, 0, n);
	__asm__ volatile("" ::: "memory");
	return 0;
}

/*
 * Two call paths into wl_copy, for callers: each its own function (noinline), so the return
 * address of every wl_copy call it makes is inside it.
 */
__attribute__((noinline)) void wl_path_a(unsigned long size, unsigned long count)
{
	unsigned long k;

	for (k = 0; k < count; k++)
		wl_copy(dst_buf, src_buf, size);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void wl_path_b(unsigned long size, unsigned long count)
{
	unsigned long k;

	for (k = 0; k < count; k++)
		wl_copy(dst_buf + 1, src_buf, size);
	__asm__ volatile("" ::: "memory");
}

static int usage(void)
{
	fprintf(stderr,
		"usage: copyload ARG...\n"
		"  copy=SIZE:COUNT[@ALIGN]  call wl_copy(dst, src, SIZE) COUNT times\n"
		"  clear=SIZE:COUNT[@ALIGN] call wl_clear(dst, SIZE) COUNT times\n"
		"  paths=SIZE:A:B           wl_copy(dst, src, SIZE) A times from wl_path_a, B "
		"times\n"
		"                           from wl_path_b (two call paths, for callers)\n"
		"  move=SIZE:COUNT          call wl_move(buf + 1, buf, SIZE) COUNT times\n"
		"  dist=FILE:COUNT          COUNT wl_copy calls with sizes drawn (fixed seed) "
		"from\n"
		"                           FILE's 'size probability' rows (fleetbench format)\n"
		"  log=FILE                 write 'size count' of every wl_copy call made\n"
		"  paced=SIZE:US:COUNT:FILE COUNT wl_copy calls, one every US microseconds, and "
		"the\n"
		"                           CLOCK_REALTIME (ns) each was made at written to "
		"FILE\n"
		"ALIGN (0..63) offsets the destination in a 64-byte aligned buffer; SIZE <= %d.\n",
		BUF_SIZE);
	return 2;
}

static void copy_n(unsigned long size, unsigned long count, unsigned long align)
{
	unsigned long k;

	for (k = 0; k < count; k++)
		wl_copy(dst_buf + align, src_buf, size);
	used[size] += count;
}

/* xorshift64*: a fixed seed makes every run replay the same sequence. */
static unsigned long long rng_next(unsigned long long *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static int replay_dist(const char *file, unsigned long count)
{
	static double cdf[MAX_SIZES];
	static unsigned long sizes[MAX_SIZES];
	unsigned long long seed = 0x9E3779B97F4A7C15ULL;
	double p, total = 0;
	unsigned long size, k;
	char line[256];
	int n = 0;
	FILE *f = fopen(file, "r");

	if (!f) {
		perror(file);
		return 1;
	}
	while (fgets(line, sizeof(line), f) && n < MAX_SIZES) {
		if (line[0] == '#' || sscanf(line, "%lu %lf", &size, &p) != 2 || size > BUF_SIZE)
			continue;
		total += p;
		sizes[n] = size;
		cdf[n++] = total;
	}
	fclose(f);
	if (!n) {
		fprintf(stderr, "%s: no 'size probability' rows\n", file);
		return 1;
	}
	for (k = 0; k < count; k++) {
		double u = (double)(rng_next(&seed) >> 11) / 9007199254740992.0 * total;
		int lo = 0, hi = n - 1;

		while (lo < hi) {
			int mid = (lo + hi) / 2;

			if (cdf[mid] > u)
				hi = mid;
			else
				lo = mid + 1;
		}
		copy_n(sizes[lo], 1, 0);
	}
	return 0;
}

static int write_log(const char *file)
{
	FILE *f = fopen(file, "w");
	int i;

	if (!f) {
		perror(file);
		return 1;
	}
	for (i = 0; i <= BUF_SIZE; i++)
		if (used[i])
			fprintf(f, "%d %lu\n", i, used[i]);
	return fclose(f) ? 1 : 0;
}

static long long realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * A call every @us microseconds (spinning, so that none waits on a timer), each one's time
 * kept: the time of the first call a tool counted is then known from how many it counted
 * (bench/startup.sh). A call late by a trap is not made up for: the next waits its turn.
 */
static int paced(unsigned long size, unsigned long us, unsigned long count, const char *file)
{
	long long *at = malloc(count * sizeof(*at)), next;
	unsigned long k;
	FILE *f;

	if (!at || size > BUF_SIZE)
		return 1;
	next = realtime_ns();
	for (k = 0; k < count; k++) {
		while (realtime_ns() < next)
			;
		at[k] = realtime_ns();
		wl_copy(dst_buf, src_buf, size);
		next += (long long)us * 1000;
		if (next < at[k])
			next = at[k];
	}
	used[size] += count;
	f = fopen(file, "w");
	for (k = 0; f && k < count; k++)
		fprintf(f, "%lld\n", at[k]);
	free(at);
	return !f || fclose(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *log = NULL;
	int i;

	if (argc < 2)
		return usage();
	for (i = 1; i < argc; i++) {
		unsigned long size, count, align = 0;
		char file[4096];

		if (!strncmp(argv[i], "log=", 4)) {
			log = argv[i] + 4;
		} else if (!strncmp(argv[i], "dist=", 5)) {
			char *colon = strrchr(argv[i], ':');

			if (!colon || colon - argv[i] - 5 >= (long)sizeof(file))
				return usage();
			snprintf(file, sizeof(file), "%.*s", (int)(colon - argv[i] - 5),
				 argv[i] + 5);
			if (replay_dist(file, strtoul(colon + 1, NULL, 10)))
				return 1;
		} else if (sscanf(argv[i], "copy=%lu:%lu@%lu", &size, &count, &align) >= 2 &&
			   size <= BUF_SIZE && align < 64) {
			copy_n(size, count, align);
		} else if (sscanf(argv[i], "paths=%lu:%lu:%lu", &size, &count, &align) == 3 &&
			   size < BUF_SIZE) {
			wl_path_a(size, count); /* align is path b's count here */
			wl_path_b(size, align);
			used[size] += count + align;
		} else if (sscanf(argv[i], "paced=%lu:%lu:%lu:%4095s", &size, &align, &count,
				  file) == 4) {
			if (paced(size, align, count, file)) /* align is the period here */
				return 1;
		} else if (sscanf(argv[i], "move=%lu:%lu", &size, &count) == 2 && size < BUF_SIZE) {
			for (unsigned long k = 0; k < count; k++)
				wl_move(dst_buf + 1, dst_buf, size);
		} else if (sscanf(argv[i], "clear=%lu:%lu@%lu", &size, &count, &align) >= 2 &&
			   size <= BUF_SIZE && align < 64) {
			for (unsigned long k = 0; k < count; k++)
				wl_clear(dst_buf + align, size);
		} else {
			return usage();
		}
	}
	return log ? write_log(log) : 0;
}
