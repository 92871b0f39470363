// SPDX-License-Identifier: GPL-2.0
/* calib_quick.c: estimate --validate without -m: calibrate --quick, only the implementations needed */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "calib_session.h"
#include "estimate/estimate_impls.h"
#include "estimate/estimate_today.h"
#include "lib/machine.h"
#include "calib_quick.h"
#include "lib/log.h"

static int add_impl(struct calib_plan *plan, const char *name)
{
	const struct asmref_impl *impl;
	size_t i;

	if (!name)
		return 0;
	impl = asmref_find(name);
	if (!impl) {
		p_err("calibrate: no asm-ref replica named %s", name);
		return -ENOENT;
	}
	for (i = 0; i < plan->nr_impls; i++)
		if (plan->impls[i] == impl)
			return 0;
	plan->impls[plan->nr_impls++] = impl;
	return 0;
}

int calib_quick_for_inputs(const struct est_input *ins, size_t nr, const struct est_options *o,
			   struct costmodel **out)
{
	struct calib_plan plan = {
		.cpu = -1, .runs = 3, .quick = true, .threshold = ASMREF_ERMS_THRESHOLD_DEFAULT
	};
	size_t i;
	int f, k, err = 0;

	plan.impls = calloc(asmref_count(), sizeof(*plan.impls));
	if (!plan.impls)
		return -ENOMEM;
	for (f = 0; f < EST_NR_FAMILIES && !err; f++) {
		if (o->family >= 0 && f != o->family)
			continue;
		for (i = 0; i < nr && !err; i++) {
			const struct est_family_impls *fi;
			struct copy_path today;

			if (!est_input_has_family(&ins[i], f))
				continue;
			/* Today's code decides the policy set (the kernel's, or glibc's). */
			/* No cost model: it is measured here, on this machine. */
			err = est_today_of(&ins[i], f, o->today[f], machine_this(), &today, NULL);
			fi = est_impls_for(f, err ? NULL : today.impl);
			err = err ?: add_impl(&plan, fi->loop) ?: add_impl(&plan, fi->string) ?:
			      add_impl(&plan, fi->dispatch) ?: add_impl(&plan, today.impl);
		}
	}
	for (k = 0; k < COSTMODEL_NR_CACHES; k++)
		plan.caches[k] = o->cache.w[k] > 0;
	plan.command = strdup("copyprof estimate (calibrate --quick)");
	if (!err && !plan.nr_impls) {
		p_err("nothing to calibrate: the input has no copy-family calls");
		err = -ENOENT;
	}
	if (!err)
		err = calib_sizes_quick(&plan.sizes);
	if (!err) {
		p_info("no cost model given (-m): measuring %zu implementation%s on this CPU, as "
		       "'copyprof calibrate --quick' would; keep one with 'copyprof calibrate "
		       "--quick -o FILE' and pass it with -m",
		       plan.nr_impls, plan.nr_impls == 1 ? "" : "s");
		err = calib_session_run(&plan, out);
	}
	calib_sizes_free(&plan.sizes);
	free(plan.impls);
	free(plan.command);
	return err;
}
