// SPDX-License-Identifier: GPL-2.0
/* calib_loop.c: the one loop of calls that calibrate and the replay both time */
#include "calib_loop.h"

void calib_loop(const struct asmref_impl *lo, const struct asmref_impl *hi, uint64_t t, void *dst,
		const void *src, const uint64_t *lens, size_t stride, size_t count)
{
	size_t i;

	switch (lo->kind) {
	case ASMREF_COPY: {
		asmref_copy_fn *l = (asmref_copy_fn *)lo->fn, *h = (asmref_copy_fn *)hi->fn;

		for (i = 0; i < count; i++) {
			uint64_t n = lens[i * stride];

			(n < t ? l : h)(dst, src, n);
		}
		break;
	}
	case ASMREF_COPY_USER: {
		asmref_copy_user_fn *l = (asmref_copy_user_fn *)lo->fn;
		asmref_copy_user_fn *h = (asmref_copy_user_fn *)hi->fn;

		for (i = 0; i < count; i++) {
			uint64_t n = lens[i * stride];

			(n < t ? l : h)(dst, src, n);
		}
		break;
	}
	case ASMREF_CLEAR: {
		asmref_clear_fn *l = (asmref_clear_fn *)lo->fn, *h = (asmref_clear_fn *)hi->fn;

		for (i = 0; i < count; i++) {
			uint64_t n = lens[i * stride];

			(n < t ? l : h)(dst, n);
		}
		break;
	}
	case ASMREF_SET: {
		asmref_set_fn *l = (asmref_set_fn *)lo->fn, *h = (asmref_set_fn *)hi->fn;

		for (i = 0; i < count; i++) {
			uint64_t n = lens[i * stride];

			(n < t ? l : h)(dst, 0, n);
		}
		break;
	}
	}
}

void calib_loop_calls(const struct asmref_impl *lo, const struct asmref_impl *hi, uint64_t t,
		      const struct calib_call *calls, size_t count)
{
	size_t i;

	switch (lo->kind) {
	case ASMREF_COPY: {
		asmref_copy_fn *l = (asmref_copy_fn *)lo->fn, *h = (asmref_copy_fn *)hi->fn;

		for (i = 0; i < count; i++)
			(calls[i].n < t ? l : h)(calls[i].dst, calls[i].src, calls[i].n);
		break;
	}
	case ASMREF_COPY_USER: {
		asmref_copy_user_fn *l = (asmref_copy_user_fn *)lo->fn;
		asmref_copy_user_fn *h = (asmref_copy_user_fn *)hi->fn;

		for (i = 0; i < count; i++)
			(calls[i].n < t ? l : h)(calls[i].dst, calls[i].src, calls[i].n);
		break;
	}
	case ASMREF_CLEAR: {
		asmref_clear_fn *l = (asmref_clear_fn *)lo->fn, *h = (asmref_clear_fn *)hi->fn;

		for (i = 0; i < count; i++)
			(calls[i].n < t ? l : h)(calls[i].dst, calls[i].n);
		break;
	}
	case ASMREF_SET: {
		asmref_set_fn *l = (asmref_set_fn *)lo->fn, *h = (asmref_set_fn *)hi->fn;

		for (i = 0; i < count; i++)
			(calls[i].n < t ? l : h)(calls[i].dst, 0, calls[i].n);
		break;
	}
	}
}
