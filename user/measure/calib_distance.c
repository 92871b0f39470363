// SPDX-License-Identifier: GPL-2.0
/* calib_distance.c: calibrate --distance: the curves again with the destination 32 B off the source */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "calib_distance.h"
#include "lib/hist.h"
#include "lib/log.h"

/* @d's curves appended to @m, with their alignments and points. 0 or -ENOMEM. */
static int take_curves(struct costmodel *m, const struct costmodel *d)
{
	size_t i, j;

	for (i = 0; i < d->nr_curves; i++) {
		const struct costmodel_curve *c = &d->curves[i];
		struct costmodel_curve *n = costmodel_add_curve(m, c->name, c->family, c->cache);

		if (!n)
			return -ENOMEM;
		n->align_dst = c->align_dst;
		n->align_src = c->align_src;
		n->threshold = c->threshold;
		for (j = 0; j < c->nr_points; j++)
			if (costmodel_curve_add_point(n, &c->points[j]))
				return -ENOMEM;
	}
	return 0;
}

int calib_distance_run(const struct calib_plan *plan, struct costmodel *m)
{
	const struct asmref_impl **impls = calloc(plan->nr_impls + 1, sizeof(*impls));
	struct calib_plan p = *plan;
	int side, err = 0, c;
	size_t i;

	if (!impls)
		return -ENOMEM;
	/* The dispatch's own cost does not follow the distance: its replica is left out. */
	p.nr_impls = 0;
	for (i = 0; i < plan->nr_impls; i++)
		if (strcmp(plan->impls[i]->name, "erms_threshold"))
			impls[p.nr_impls++] = plan->impls[i];
	p.impls = impls;
	for (c = 0; c < COSTMODEL_NR_CACHES; c++)
		p.caches[c] = c == COSTMODEL_WARM;
	p.cache_given = false;
	for (side = 0; side < 2 && !err && p.nr_impls; side++) {
		struct costmodel *d = NULL;

		p.align_dst = (plan->align_dst + (side ? 0 : CALIB_DISTANCE_BYTES)) &
			      (CP_DIST_PERIOD - 1);
		p.align_src = (plan->align_src + (side ? CALIB_DISTANCE_BYTES : 0)) &
			      (CP_DIST_PERIOD - 1);
		p_info("calibrate --distance: the curves again, warm, with (dst - src) mod 4096 = "
		       "%u (--align %u,%u)",
		       (p.align_dst - p.align_src) & (CP_DIST_PERIOD - 1), p.align_dst,
		       p.align_src);
		err = calib_session_run(&p, &d);
		if (!err)
			err = take_curves(m, d);
		costmodel_free(d);
	}
	free(impls);
	return err;
}
