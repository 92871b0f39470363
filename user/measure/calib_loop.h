/* SPDX-License-Identifier: GPL-2.0 */
/* calib_loop.h: the one loop of calls that calibrate and the replay both time */
#ifndef CP_CALIB_LOOP_H
#define CP_CALIB_LOOP_H

#include <stddef.h>
#include <stdint.h>
#include "asmref.h"

/*
 * @count calls in a row, call i of length @lens[i * @stride] (@stride 0: every call the same
 * length): @lo below @t, @hi from @t (the same kind of replica). Each length is loaded from
 * memory and each call made directly, the kind's signature resolved once outside the loop.
 * calibrate (one length) and the replay (a profile's sequence) time this same code, so that the
 * cost model and the replay pay the same harness per call: its alignment and its load of the
 * length move a short copy's cost by more than a threshold's effect on this machine
 * (docs/estimate.md#one-timed-loop).
 */
void calib_loop(const struct asmref_impl *lo, const struct asmref_impl *hi, uint64_t t, void *dst,
		const void *src, const uint64_t *lens, size_t stride, size_t count);

/* One call of a replayed mix: its own destination, source and length. */
struct calib_call {
	void *dst;
	const void *src;
	uint64_t n;
};

/*
 * calib_loop() over a replayed mix (replay/paired.c): call i copies @calls[i].n bytes from
 * @calls[i].src to @calls[i].dst, @lo below @t and @hi from @t, each call made directly.
 */
void calib_loop_calls(const struct asmref_impl *lo, const struct asmref_impl *hi, uint64_t t,
		      const struct calib_call *calls, size_t count);

#endif
