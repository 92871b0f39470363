/* SPDX-License-Identifier: GPL-2.0 */
/* flame_diff.h: a differential flame graph's frames: AFTER's widths, the change as colour */
#ifndef CP_FLAME_DIFF_H
#define CP_FLAME_DIFF_H

#include "flame_profile.h"
#include "profile/profile_diff.h"
#include "tree.h"

/*
 * Adds @d's frames to @t, as FlameGraph's difffolded draws two profiles: a frame's weight
 * (its width) is AFTER's, its today_ns BEFORE's, scaled by @d's exposures (per second, or per
 * recording with --totals), so weight / today_ns - 1 is the change the colour shows. Sampled
 * profiles: their folded stacks, by samples; counted ones: one frame per matched site (named
 * as diff names it: AFTER's offset, BEFORE's when it moved), its callers, its lengths, by
 * calls or bytes (@w). Sampled stacks stand on their process's name unless @no_comm
 * (flame_stack_text()). *@full gets the largest |change| of a frame on both sides (the colour
 * scale's end; 1 when nothing changed). 0 or -ENOMEM.
 */
int flame_diff_build(const struct profile_diff *d, enum flame_weight w, bool no_comm,
		     struct fg_tree *t, double *full);

#endif
