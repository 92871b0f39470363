/* SPDX-License-Identifier: GPL-2.0 */
/* calib_sizes.h: the lengths calibrate measures: defaults, --quick, and --sizes lists */
#ifndef CP_CALIB_SIZES_H
#define CP_CALIB_SIZES_H

#include <stddef.h>
#include <stdint.h>

#define CALIB_SIZE_MAX (1ULL << 30) /* 1 GiB */

struct calib_sizes {
	uint64_t *v; /* ascending, no duplicates */
	size_t n;
};

/* Every length 1..256, then the lower edges of the profile's buckets up to 1 MiB. */
int calib_sizes_default(struct calib_sizes *s);
/* A short list for --quick: powers of two 8..16 KiB, then 64 KiB, 256 KiB, 1 MiB. */
int calib_sizes_quick(struct calib_sizes *s);
/*
 * Parses "32,64,1K-1032,4K,1M": sizes in bytes with an optional K, M or G (powers of 1024), or
 * inclusive ranges A-B of every length. Each must be in 1..1 GiB. Returns 0, or -EINVAL with
 * the reason in @why, or -ENOMEM.
 */
int calib_sizes_parse(const char *list, struct calib_sizes *s, char *why, size_t whylen);
void calib_sizes_free(struct calib_sizes *s);

#endif
