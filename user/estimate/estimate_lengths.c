// SPDX-License-Identifier: GPL-2.0
/* estimate_lengths.c: a family's exact lengths gathered for its replay, and how they were drawn */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "costmodel/mixmeas.h"
#include "estimate_cost.h"
#include "estimate_exact.h"
#include "estimate_input.h"
#include "estimate_lengths.h"
#include "estimate_result.h"
#include "lib/hist.h"

int est_exact_collect(const struct est_costs *c, const struct est_input *in, enum copy_family f,
		      struct est_family_result *r)
{
	struct est_exact_list l = { 0 };
	size_t i;
	uint32_t j;
	int err = 0;

	for (i = 0; !err && i < in->nr_sites; i++) {
		const struct est_site *s = &in->sites[i];

		if (s->family != f)
			continue;
		/* A site's list is on its first row, its buckets maybe on several (callers). */
		for (j = 0; !err && j < s->nr_exact; j++)
			err = est_exact_add(
				&l, s->exact[j].len,
				s->exact[j].n *
					est_calls_per_unit(c, in, s, (double)s->exact[j].len));
	}
	if (err) {
		est_exact_list_free(&l);
		return err;
	}
	est_exact_finish(&l);
	r->exact = l.v;
	r->nr_exact = l.nr;
	return 0;
}

double est_exact_share(const struct est_family_result *r)
{
	double all = 0, exact = 0;
	size_t i;
	int b;

	for (b = 0; r->bucket_calls && b < CP_NBUCKETS; b++) {
		all += r->bucket_calls[b];
		if (hist_bucket_hi(b) - hist_bucket_lo(b) == 1)
			exact += r->bucket_calls[b];
	}
	for (i = 0; i < r->nr_exact; i++)
		exact += r->exact[i].n;
	return all > 0 ? exact / all : 0;
}

const char *est_lengths_words(const struct mixmeas *mm, char *buf, size_t len)
{
	if (!isfinite(mm->exact_pct))
		snprintf(buf, len,
			 "lengths exact below 64 B and from 64 B uniform around each bucket's "
			 "recorded mean within the bucket");
	else if (mm->exact_pct >= 100)
		snprintf(buf, len,
			 "lengths exact for 100%% of calls (below 64 B and the input's "
			 "exact lengths)");
	else
		snprintf(buf, len,
			 "lengths exact for %.1f%% of calls (below 64 B and the input's exact "
			 "lengths), uniform within their buckets around each bucket's mean for "
			 "the rest",
			 mm->exact_pct);
	return buf;
}
