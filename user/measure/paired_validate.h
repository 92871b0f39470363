/* SPDX-License-Identifier: GPL-2.0 */
/* paired_validate.h: estimate --validate: an independent paired replay against the estimate */
#ifndef CP_PAIRED_VALIDATE_H
#define CP_PAIRED_VALIDATE_H

#include "costmodel/mixmeas.h"
#include "estimate/estimate_input.h"
#include "estimate/estimate_result.h"
#include "paired.h"

/* The seed --validate draws with: never calibrate's, so the replay is an independent one. */
#define PAIRED_VALIDATE_SEED 0xd1b54a32d192ed03ULL

/*
 * Replays in all while today's code runs beyond EST_VALIDATE_STATE_PCT of the stored
 * measurement's time per call: MEASURE_RETRY_VALIDATE_TRIES (costmodel/protocol.h, with why).
 */

/*
 * Measures @fr's mix afresh (paired_measure() with @po, but PAIRED_VALIDATE_SEED and new
 * buffers; the budget of the stored measurement if there is one), into @out (the caller frees
 * it), and sets @fr's validate_pct/lo/hi per row (NAN where not replayed), its noise floor
 * (the larger of the A/A control's offset and half-interval), @fr->validate_state_pct (today's
 * time per call in the replay against the stored measurement's, in percent; NAN: none stored)
 * and @fr->validation = @out. Replayed again while that gap exceeds EST_VALIDATE_STATE_PCT (measure_retry.h).
 * Returns 0, or -errno after printing why.
 */
int paired_validate_family(const struct est_input *in, struct est_family_result *fr,
			   const struct paired_opts *po, struct mixmeas *out);

#endif
