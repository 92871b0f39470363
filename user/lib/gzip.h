/* SPDX-License-Identifier: GPL-2.0 */
/* gzip.h: a buffer as gzip (RFC 1952), reproducible: no name, no time */
#ifndef CP_GZIP_H
#define CP_GZIP_H

#include <stddef.h>

#define GZIP_FAST 1  /* what a server answering every scrape affords */
#define GZIP_SMALL 9 /* files: the smallest output */

/* @len bytes of @in compressed at @level into *@out (malloc()ed). 0, -ENOMEM or -EIO. */
int gzip_compress(const void *in, size_t len, int level, void **out, size_t *out_len);

#endif
