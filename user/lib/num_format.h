/* SPDX-License-Identifier: GPL-2.0 */
/* num_format.h: counts with thousands separators ("12,208") and sizes ("256 KiB") for text */
#ifndef CP_NUM_FORMAT_H
#define CP_NUM_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* Room for UINT64_MAX with its separators: 20 digits, 6 commas and the NUL. */
#define NUM_FORMAT_LEN 27

/*
 * Writes @v into @buf in decimal with a comma between every three digits from the right
 * ("0", "999", "1,000", "50,000,000") and returns @buf. Text output only: JSON keeps plain
 * numbers.
 */
char *num_format(uint64_t v, char buf[NUM_FORMAT_LEN]);
/* A size in its largest exact unit: "256 KiB", "4 MiB", "1000 B"; returns @buf. */
char *num_format_bytes(uint64_t n, char *buf, size_t len);

#endif
