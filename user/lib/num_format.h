/* SPDX-License-Identifier: GPL-2.0 */
/* num_format.h: counts with thousands separators for text output ("12,208") */
#ifndef CP_NUM_FORMAT_H
#define CP_NUM_FORMAT_H

#include <stdint.h>

/* Room for UINT64_MAX with its separators: 20 digits, 6 commas and the NUL. */
#define NUM_FORMAT_LEN 27

/*
 * Writes @v into @buf in decimal with a comma between every three digits from the right
 * ("0", "999", "1,000", "50,000,000") and returns @buf. Text output only: JSON keeps plain
 * numbers.
 */
char *num_format(uint64_t v, char buf[NUM_FORMAT_LEN]);

#endif
