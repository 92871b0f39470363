/* SPDX-License-Identifier: GPL-2.0 */
/* costmodel_paired.h: a cost model's paired measurements of mixes, sitting by sitting */
#ifndef CP_COSTMODEL_PAIRED_H
#define CP_COSTMODEL_PAIRED_H

#include <stddef.h>
#include "costmodel.h"
#include "mixmeas.h"

/*
 * Stores @mm (taken over: its strings move into the model) as a sitting of the paired
 * measurement of its family, digest and site in its condition (cache state and working set):
 * beside the sittings already there when they measured the same thing
 * (mixmeas_same_measurement()), the oldest dropped past MIXMEAS_MAX_SITTINGS; beside those of
 * another condition that differ in nothing else (MIXMEAS_OTHER_CELL: cells of one matrix, never
 * pooled); else in their place. Returns the sittings now stored in its condition (>= 1), or
 * -ENOMEM.
 */
int costmodel_store_paired(struct costmodel *m, struct mixmeas *mm);
/*
 * The sittings of family @family and mix @digest, of site @site (NULL: the whole mix), in the
 * condition of @like (NULL: the first stored), oldest first, into @out[0..max); how many.
 */
size_t costmodel_paired_sittings(const struct costmodel *m, const char *family, const char *digest,
				 const char *site, const struct mixmeas *like,
				 const struct mixmeas **out, size_t max);
/*
 * The conditions (cache state, working set) that mix was measured in: one stored entry of each,
 * in the order first stored, into @out[0..max); how many.
 */
size_t costmodel_paired_conditions(const struct costmodel *m, const char *family,
				   const char *digest, const char *site, const struct mixmeas **out,
				   size_t max);

#endif
