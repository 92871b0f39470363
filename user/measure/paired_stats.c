// SPDX-License-Identifier: GPL-2.0
/* paired_stats.c: the median of per-round ratios and its bootstrap interval, reproducibly */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include "lib/median.h"
#include "paired_stats.h"
#include "replay_rng.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * One bootstrap resample of @ratio into @out: n rounds drawn alone, or (@nr_used > 1) @nr_used
 * groups drawn from @used, then as many rounds from each drawn group, n / nr_used, so that every
 * group weighs the same, as in the figure itself. Returns the values written.
 */
static size_t resample(const double *ratio, size_t n, size_t *const *members, const size_t *count,
		       const size_t *used, size_t nr_used, uint64_t *s, double *out)
{
	size_t i, g, k = 0, each = nr_used ? n / nr_used : 0;

	if (nr_used < 2) {
		for (i = 0; i < n; i++)
			out[i] = ratio[replay_rng_below(s, n)];
		return n;
	}
	for (g = 0; g < nr_used; g++) {
		size_t pick = used[replay_rng_below(s, nr_used)];

		for (i = 0; i < (each ? each : 1); i++)
			out[k++] = ratio[members[pick][replay_rng_below(s, count[pick])]];
	}
	return k;
}

struct weighted {
	double v, w;
};

static int cmp_weighted(const void *a, const void *b)
{
	double x = ((const struct weighted *)a)->v, y = ((const struct weighted *)b)->v;

	return x < y ? -1 : x > y;
}

/*
 * The median of @ratio with every group of @members weighing the same (each round 1 / its
 * group's count): the value where half the weight lies below, the mean of the two beside it
 * where the half falls between them (so that equal groups give the plain median). NAN for none.
 */
static double group_weighted_median(const double *ratio, size_t *const *members,
				    const size_t *count, const size_t *used, size_t nr_used)
{
	struct weighted *x;
	double total = 0, acc = 0, m = NAN;
	size_t g, i, k = 0, n = 0;

	for (g = 0; g < nr_used; g++)
		n += count[used[g]];
	x = malloc((n + 1) * sizeof(*x));
	if (!x)
		return NAN;
	for (g = 0; g < nr_used; g++)
		for (i = 0; i < count[used[g]]; i++)
			x[k++] = (struct weighted){ ratio[members[used[g]][i]],
						    1.0 / (double)count[used[g]] };
	qsort(x, n, sizeof(*x), cmp_weighted);
	for (i = 0; i < n; i++)
		total += x[i].w;
	for (i = 0; i < n && isnan(m); i++) {
		acc += x[i].w;
		if (fabs(acc - total / 2) <= 1e-9 * total && i + 1 < n)
			m = (x[i].v + x[i + 1].v) / 2;
		else if (acc > total / 2)
			m = x[i].v;
	}
	free(x);
	return m;
}

/*
 * Groups of fewer than PAIRED_MIN_GROUP rounds joined to their neighbours: @into[g] is the group
 * group g's rounds count in. Consecutive groups (batches follow each other in time) are joined
 * until each holds PAIRED_MIN_GROUP rounds, a short last one to the one before it.
 */
static void join_small_groups(const size_t *count, size_t nr_groups, size_t *into)
{
	size_t g, cur = 0, prev = 0, acc = 0;
	bool any = false, had_prev = false;

	for (g = 0; g < nr_groups; g++) {
		into[g] = g;
		if (!count[g])
			continue;
		if (!any || acc >= PAIRED_MIN_GROUP) {
			if (any) {
				prev = cur;
				had_prev = true;
			}
			cur = g;
			acc = 0;
			any = true;
		}
		into[g] = cur;
		acc += count[g];
	}
	for (g = 0; had_prev && acc < PAIRED_MIN_GROUP && g < nr_groups; g++)
		if (into[g] == cur)
			into[g] = prev;
}

int paired_median_ci(const double *ratio, const uint8_t *group, size_t nr_groups, size_t n,
		     uint64_t seed, double *pct, double *lo, double *hi)
{
	double *tmp = malloc((2 * n + 1) * sizeof(*tmp)), *meds = malloc(PAIRED_BOOTSTRAP * 8);
	size_t *members[256] = { NULL }, count[256] = { 0 }, used[256], nr_used = 0, i, b, g;
	size_t raw[256] = { 0 }, into[256];
	uint64_t s = (seed ^ 0x632be59bd9b4e019ULL) * 0x9e3779b97f4a7c15ULL | 1;
	int err = 0;

	if (!group || nr_groups > 256)
		nr_groups = 0;
	for (g = 0; g < nr_groups && !err; g++) {
		members[g] = malloc((n + 1) * sizeof(size_t));
		err = members[g] ? 0 : -ENOMEM;
	}
	if (!tmp || !meds || err) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; nr_groups && i < n; i++)
		if (group[i] < nr_groups)
			raw[group[i]]++;
	join_small_groups(raw, nr_groups, into);
	for (i = 0; nr_groups && i < n; i++)
		if (group[i] < nr_groups) {
			g = into[group[i]];
			members[g][count[g]++] = i;
		}
	for (g = 0; g < nr_groups; g++)
		if (count[g]) /* a group without rounds here (a batch all busy) takes no part */
			used[nr_used++] = g;
	for (i = 0; i < n; i++)
		tmp[i] = ratio[i];
	*pct = 100 * ((nr_used > 1 ? group_weighted_median(ratio, members, count, used, nr_used)
				   : median_select(tmp, n)) -
		      1);
	for (b = 0; b < PAIRED_BOOTSTRAP && n; b++) {
		size_t k = resample(ratio, n, members, count, used, nr_used, &s, tmp);

		meds[b] = median_select(tmp, k);
	}
	if (n) {
		qsort(meds, PAIRED_BOOTSTRAP, sizeof(*meds), cmp_double);
		*lo = 100 * (meds[(size_t)(0.025 * PAIRED_BOOTSTRAP)] - 1);
		*hi = 100 * (meds[(size_t)(0.975 * PAIRED_BOOTSTRAP) - 1] - 1);
	} else {
		*lo = *hi = NAN;
	}
out:
	for (g = 0; g < nr_groups; g++)
		free(members[g]);
	free(tmp);
	free(meds);
	return err;
}
