/* SPDX-License-Identifier: GPL-2.0 */
/* count_sum.h: totals of calls, bytes and samples over sites that never wrap */
#ifndef CP_COUNT_SUM_H
#define CP_COUNT_SUM_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>

/*
 * The one rule for a total over sites, groups or buckets: it is summed in 128 bits, so that
 * any number of 64-bit counts (a profile holds at most 250,000 sites, far below 2^64 of them)
 * adds up exactly, and it is shown exactly by every command: with separators in text, as a
 * plain integer in JSON. Only a count that must be stored in 64 bits again (one merged site's
 * bucket, a pprof value) can be too large, and what stores it refuses by name.
 */
typedef unsigned __int128 count_sum;

/* Room for 2^128 - 1 with its separators: 39 digits, 12 commas and the NUL. */
#define COUNT_SUM_LEN 52

/* @v with a comma between every three digits from the right, into @buf; returns @buf. */
char *count_sum_format(count_sum v, char buf[COUNT_SUM_LEN]);
/* @v in plain decimal digits, into @buf; returns @buf. */
char *count_sum_digits(count_sum v, char buf[COUNT_SUM_LEN]);
/*
 * @v as a JSON integer: json-c's own while it fits 64 bits, otherwise a number json-c writes
 * as the exact digits (a reader that keeps doubles reads it rounded, never wrapped).
 */
json_object *count_sum_json(count_sum v);
/* A non-negative whole double (a count kept as a double) as a sum: exact, clamped at 0. */
count_sum count_sum_from_double(double v);
/* Whether @v fits a uint64_t (a profile's count) or an int64_t (a pprof value). */
static inline bool count_sum_fits_u64(count_sum v)
{
	return v <= UINT64_MAX;
}

static inline bool count_sum_fits_i64(count_sum v)
{
	return v <= INT64_MAX;
}

#endif
