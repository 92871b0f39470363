/* SPDX-License-Identifier: GPL-2.0 */
/* outfile.h: write a whole file or nothing (temp file in the same folder, fsync, rename) */
#ifndef CP_OUTFILE_H
#define CP_OUTFILE_H

#include <stddef.h>

/* Returns 0, or -errno after printing what failed; @path is never left half-written. */
int outfile_write(const char *path, const void *data, size_t len);

#endif
