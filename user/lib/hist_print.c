// SPDX-License-Identifier: GPL-2.0
/* hist_print.c: print_log2_hist-style rows from copyprof's finer buckets */
#include <stdlib.h>
#include "hist_print.h"

#define STARS_MAX 40
#define LOG2_ROWS (CP_MAX_LOG2 + 1)

static void print_stars(FILE *f, uint64_t val, uint64_t max)
{
	int n = max ? (int)(val * STARS_MAX / max) : 0, i;

	for (i = 0; i < STARS_MAX; i++)
		fputc(i < n ? '*' : ' ', f);
}

/* Row 0 is 0..1, row k is 2^k..2^(k+1)-1, as in bcc; the last row takes the overflow. */
static int row_of(uint32_t b)
{
	uint64_t lo = hist_bucket_lo(b);

	return lo < 2 ? 0 : (int)cp_log2(lo);
}

void hist_print_log2(FILE *f, const struct hist_slot *buckets)
{
	struct hist_slot rows[LOG2_ROWS] = { 0 };
	uint64_t max = 0;
	int first = -1, last = -1, r;
	uint32_t b;

	for (b = 0; b < CP_NBUCKETS; b++) {
		r = row_of(b);
		rows[r].count += buckets[b].count;
		rows[r].bytes += buckets[b].bytes;
	}
	for (r = 0; r < LOG2_ROWS; r++) {
		if (!rows[r].count)
			continue;
		if (first < 0)
			first = r;
		last = r;
		if (rows[r].count > max)
			max = rows[r].count;
	}
	if (first < 0) {
		fprintf(f, "     (no calls)\n");
		return;
	}
	fprintf(f, "%24s : %-10s %-*s %s\n", "bytes", "count", STARS_MAX + 2, "distribution",
		"bytes");
	for (r = first; r <= last; r++) {
		uint64_t lo = r ? 1ULL << r : 0, hi = (1ULL << (r + 1)) - 1;

		if (r == CP_MAX_LOG2)
			fprintf(f, "%13llu -> %-7s : %-10llu |", (unsigned long long)lo, "inf",
				(unsigned long long)rows[r].count);
		else
			fprintf(f, "%13llu -> %-7llu : %-10llu |", (unsigned long long)lo,
				(unsigned long long)hi, (unsigned long long)rows[r].count);
		print_stars(f, rows[r].count, max);
		fprintf(f, "| %llu\n", (unsigned long long)rows[r].bytes);
	}
}

static const struct hist_slot *sort_base;

static int by_count_desc(const void *a, const void *b)
{
	uint64_t ca = sort_base[*(const uint32_t *)a].count,
		 cb = sort_base[*(const uint32_t *)b].count;

	if (ca != cb)
		return ca < cb ? 1 : -1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

void hist_print_top(FILE *f, const struct hist_slot *buckets, int n)
{
	uint32_t order[CP_NBUCKETS], b;
	uint64_t total = 0;
	int i;

	for (b = 0; b < CP_NBUCKETS; b++) {
		order[b] = b;
		total += buckets[b].count;
	}
	if (!total)
		return;
	sort_base = buckets;
	qsort(order, CP_NBUCKETS, sizeof(*order), by_count_desc);
	fprintf(f, "  top sizes:");
	for (i = 0; i < n && buckets[order[i]].count; i++) {
		const struct hist_slot *s = &buckets[order[i]];
		uint64_t lo = hist_bucket_lo(order[i]), hi = hist_bucket_hi(order[i]);

		/* Every length is >= lo, so bytes == count * lo means all were exactly lo. */
		if (hi - lo == 1 || s->bytes == s->count * lo)
			fprintf(f, "%s %llu", i ? "," : "", (unsigned long long)lo);
		else
			fprintf(f, "%s %llu-%llu (mean %.1f)", i ? "," : "", (unsigned long long)lo,
				(unsigned long long)hi - 1, (double)s->bytes / (double)s->count);
		fprintf(f, " (%.1f%%)", 100.0 * (double)s->count / (double)total);
	}
	fputc('\n', f);
}
