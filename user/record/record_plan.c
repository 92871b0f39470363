// SPDX-License-Identifier: GPL-2.0
/* record_plan.c: the planner's covered sites become record's probe sites */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lib/log.h"
#include "planner.h"
#include "record_plan.h"

int record_plan_sites(const struct record_plan_args *a, struct probe_site *out, int *nr, int max)
{
	struct plan p;
	int i, err = 0, added = 0;
	size_t k;

	err = plan_init(&p, a->vmlinux);
	if (err)
		return err;
	p.list_callers = true;
	for (i = 0; i < a->nr_presets && !err; i++)
		err = plan_add_preset(&p, a->presets[i]);
	for (i = 0; i < a->nr_sites && !err; i++)
		err = plan_add_function(&p, a->sites[i]);
	for (i = 0; i < a->nr_entries && !err; i++)
		err = plan_add_entry(&p, a->entries[i]);
	if (err == -EINVAL)
		err = 0; /* a malformed item is one of the plan's reported problems */
	if (err) {	 /* a broken or missing preset (printed): no plan to show */
		plan_free(&p);
		return err;
	}
	fprintf(stderr, "copyprof: plan (%zu sites, %zu attachable, %d hardware breakpoints):\n",
		p.nr, plan_nr_covered(&p), p.hwbp_used);
	plan_print(&p, stderr);
	for (k = 0; k < p.nr && !err; k++) {
		if (p.v[k].choice == PLAN_UNCOVERED)
			continue;
		if (*nr >= max) {
			p_warn("more than %d sites: the rest are not recorded", max);
			break;
		}
		/* The site moves to record; the plan keeps nothing to free. */
		out[(*nr)++] = p.v[k].site;
		memset(&p.v[k].site, 0, sizeof(p.v[k].site));
		added++;
	}
	plan_free(&p);
	return err ? err : added;
}
