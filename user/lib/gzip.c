// SPDX-License-Identifier: GPL-2.0
/* gzip.c: zlib's deflate with a gzip header, the same bytes for the same input */
#include <errno.h>
#include <stdlib.h>
#include <zlib.h>
#include "gzip.h"

int gzip_compress(const void *in, size_t len, int level, void **out, size_t *out_len)
{
	z_stream zs = { 0 };
	uLong bound;
	void *buf;

	/* 15 + 16: a gzip wrapper, whose header zlib writes with no name and mtime 0. */
	if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	bound = deflateBound(&zs, (uLong)len);
	buf = malloc(bound);
	if (!buf) {
		deflateEnd(&zs);
		return -ENOMEM;
	}
	zs.next_in = (Bytef *)in;
	zs.avail_in = (uInt)len;
	zs.next_out = buf;
	zs.avail_out = (uInt)bound;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&zs);
		free(buf);
		return -EIO;
	}
	*out_len = zs.total_out;
	*out = buf;
	deflateEnd(&zs);
	return 0;
}
