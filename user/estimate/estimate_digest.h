/* SPDX-License-Identifier: GPL-2.0 */
/* estimate_digest.h: the digest of a family's recorded mix, which paired measurements are filed by */
#ifndef CP_ESTIMATE_DIGEST_H
#define CP_ESTIMATE_DIGEST_H

#include <stdbool.h>
#include <stddef.h>
#include "estimate_input.h"
#include "estimate_options.h"

/*
 * The digest (16 hex digits into @out, at least 17 bytes) that calibrate --mix stores a paired
 * measurement of family @f of @in under, and that estimate looks it up by: the family, whether
 * the weights are calls or samples, today's implementation @today (and, for glibc's, the
 * threshold @knob it ran with; UINT64_MAX: none), the cache state, and every
 * bucket's raw weight and summed length, every exact length's weight (where the input has them)
 * and every alignment count over the family's sites: only
 * what the profile recorded, never a figure computed from a cost model (a sampled profile's
 * inferred calls change with the model's rounding and would never match). The policies are not
 * in it: estimate matches them by name, and a row the measurement lacks is only modelled.
 */
void est_mix_digest(const struct est_input *in, enum copy_family f, const char *today,
		    uint64_t knob, const struct est_options *o, char *out, size_t len);

/* The family's address alignments summed over its sites; false (all 0) if none recorded. */
bool est_family_alignments(const struct est_input *in, enum copy_family f, double *dst,
			   double *src);
/*
 * The family's calls by pointer distance class (enum cp_dist_class) per length bucket, summed
 * over the sites that recorded them, into @dist (CP_NBUCKETS x CP_NR_DIST, row-major); false
 * (all 0) if no site of the family recorded distances.
 */
bool est_family_distances(const struct est_input *in, enum copy_family f, double *dist);

#endif
