// SPDX-License-Identifier: GPL-2.0
/* estimate_result.c: a family's estimate freed, with what it holds */
#include <stdlib.h>
#include <string.h>
#include "estimate_result.h"

void est_family_result_free(struct est_family_result *r)
{
	free(r->rows);
	free(r->sites);
	free(r->bucket_calls);
	free(r->bucket_bytes);
	free(r->validate_pct);
	free(r->validate_lo);
	free(r->validate_hi);
	memset(r, 0, sizeof(*r));
}

size_t est_family_timed_policies(const struct est_family_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr_rows; i++)
		n += r->rows[i].pol.kind != EST_TODAY && r->rows[i].pol.kind != EST_ORACLE;
	return n;
}
