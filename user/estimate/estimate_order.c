// SPDX-License-Identifier: GPL-2.0
/* estimate_order.c: a family's recorded call order gathered for its replay, and how it was used */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "costmodel/mixmeas.h"
#include "estimate_input.h"
#include "estimate_order.h"
#include "estimate_result.h"
#include "profile/profile_order.h"

int est_order_collect(const struct est_input *in, enum copy_family f, struct est_family_result *r)
{
	size_t i, n = 0;
	uint32_t k;

	r->order_runs = NULL;
	r->nr_order_runs = 0;
	for (i = 0; i < in->nr_sites; i++)
		if (in->sites[i].family == f && in->sites[i].order)
			n += in->sites[i].order->nr;
	if (!n)
		return 0;
	if (n > EST_MAX_ORDER_RUNS)
		n = EST_MAX_ORDER_RUNS;
	r->order_runs = calloc(n, sizeof(*r->order_runs));
	if (!r->order_runs)
		return -ENOMEM;
	for (i = 0; i < in->nr_sites && r->nr_order_runs < n; i++) {
		const struct est_site *s = &in->sites[i];

		for (k = 0; s->family == f && s->order && k < s->order->nr && r->nr_order_runs < n;
		     k++)
			r->order_runs[r->nr_order_runs++] = s->order->runs[k];
	}
	return 0;
}

const char *est_order_words(const struct mixmeas *mm, char *buf, size_t len)
{
	if (!mm->order_runs)
		snprintf(buf, len, "calls drawn independently from the buckets");
	else if (mm->order_calls == mm->order_runs * (uint64_t)CP_ORDER_LEN)
		snprintf(buf, len,
			 "calls in recorded order: %llu runs of %d calls, each pass the runs in "
			 "an order of its own",
			 (unsigned long long)mm->order_runs, CP_ORDER_LEN);
	else
		snprintf(buf, len,
			 "calls in recorded order: %llu runs, %llu calls in all, each pass the "
			 "runs in an order of its own",
			 (unsigned long long)mm->order_runs, (unsigned long long)mm->order_calls);
	return buf;
}
