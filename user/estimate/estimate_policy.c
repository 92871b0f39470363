// SPDX-License-Identifier: GPL-2.0
/* estimate_policy.c: the policies of an estimate, named as its rows are */
#include <stdio.h>
#include "estimate_policy.h"

void est_policies_make(const struct est_options *o, struct est_policy *pol, size_t *np)
{
	size_t n = 0, i;

	pol[n++] = (struct est_policy){ .kind = EST_TODAY, .name = "today" };
	pol[n++] = (struct est_policy){ .kind = EST_ALWAYS, .name = "always" };
	for (i = 0; i < o->nr_thresholds; i++) {
		struct est_policy *p = &pol[n++];

		*p = (struct est_policy){ .kind = EST_THRESHOLD, .threshold = o->thresholds[i] };
		if (o->thresholds[i] == EST_NEVER)
			snprintf(p->name, sizeof(p->name), "never");
		else
			snprintf(p->name, sizeof(p->name), "T=%llu",
				 (unsigned long long)o->thresholds[i]);
	}
	pol[n++] = (struct est_policy){ .kind = EST_ORACLE, .name = "oracle" };
	*np = n;
}
