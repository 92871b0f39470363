// SPDX-License-Identifier: GPL-2.0
/* measure_retry.c: the measurement layer's one plausibility rule: judge, measure again, refuse */
#include <errno.h>
#include "lib/log.h"
#include "measure_retry.h"

int measure_retry_run(const struct measure_retry *r)
{
	char why[1024]; /* calibrate's refusal names a point and every limit */
	int attempt, err = 0;

	for (attempt = 0; attempt < r->tries; attempt++) {
		bool last = attempt + 1 >= r->tries;

		why[0] = '\0';
		err = r->measure(r->ctx, attempt);
		if (err)
			return err;
		err = r->judge(r->ctx, attempt, last, why, sizeof(why));
		if (err != -EDOM)
			return err; /* taken, or a failure that no measurement can mend */
		if (last)
			break;
		p_warn("%s: %s; measuring again (%d of %d)", r->what, why, attempt + 2, r->tries);
	}
	if (!r->refuse)
		return MEASURE_RETRY_KEPT;
	p_err("%s: %s", r->what, why);
	return -EDOM;
}
