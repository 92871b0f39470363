/* SPDX-License-Identifier: GPL-2.0 */
/* paired_inputs.h: calibrate --mix: every family of every input measured into a cost model */
#ifndef CP_PAIRED_INPUTS_H
#define CP_PAIRED_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include "estimate/estimate_run.h"
#include "paired.h"

/*
 * True if @m was measured on this CPU (the only place a paired measurement can be stored: it
 * is this CPU's answer); else false with @why (printed by the caller).
 */
bool paired_model_is_here(const struct costmodel *m, char *why, size_t len);

/*
 * For each input of @run (read, with its cost model @run->models[0] measured on this CPU),
 * each family it has calls of (or @run->opts.o.family): the paired measurement of its mix
 * (paired_measure() with @po, whose cache is @run's), stored in the model under the mix's
 * digest, so that estimate on the same input answers with it; then its hottest sites' own
 * mixes (paired_measure_sites(), @po's site_budget_s). @what names the inputs, for the
 * entry's "input". All of it @sittings times, @gap_s seconds apart: each a sitting of the
 * measurement, pooled by estimate (docs/estimate.md#sittings). Returns 0, -EINTR, -EDOM (a
 * refused measurement), or -errno after printing.
 */
int paired_measure_inputs(struct est_run *run, const struct paired_opts *po, const char *what,
			  unsigned int sittings, double gap_s);

#endif
