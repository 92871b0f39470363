// SPDX-License-Identifier: GPL-2.0
/* decompress.c: gzip (zlib), xz (liblzma) and zstd (libzstd) streams decompressed in memory */
#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include "decompress.h"
#include "log.h"

static const struct {
	enum compression c;
	const char *name;
	unsigned char magic[6];
	size_t len;
} formats[] = {
	{ COMP_GZIP, "gzip", { 0x1f, 0x8b, 0x08 }, 3 },
	{ COMP_XZ, "xz", { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6 },
	{ COMP_ZSTD, "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4 },
};

#define NR_FORMATS (sizeof(formats) / sizeof(formats[0]))

enum compression decompress_detect(const void *buf, size_t len)
{
	size_t i;

	for (i = 0; i < NR_FORMATS; i++)
		if (len >= formats[i].len && !memcmp(buf, formats[i].magic, formats[i].len))
			return formats[i].c;
	return COMP_NONE;
}

const char *decompress_name(enum compression c)
{
	size_t i;

	for (i = 0; i < NR_FORMATS; i++)
		if (formats[i].c == c)
			return formats[i].name;
	return "none";
}

/* Doubles *@buf when it is full; false on allocation failure. */
static bool grow(unsigned char **buf, size_t *cap, size_t used)
{
	unsigned char *b;

	if (used < *cap)
		return true;
	*cap = *cap ? *cap * 2 : 1 << 20;
	b = realloc(*buf, *cap);
	if (!b)
		return false;
	*buf = b;
	return true;
}

static int gunzip(const void *in, size_t in_len, unsigned char **out, size_t *cap, size_t *used)
{
	z_stream s = { .next_in = (Bytef *)in, .avail_in = (uInt)in_len };
	int rc = Z_OK;

	if (inflateInit2(&s, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	while (rc == Z_OK) {
		if (!grow(out, cap, *used)) {
			inflateEnd(&s);
			return -ENOMEM;
		}
		s.next_out = *out + *used;
		s.avail_out = (uInt)(*cap - *used);
		rc = inflate(&s, Z_NO_FLUSH);
		*used = *cap - s.avail_out;
	}
	inflateEnd(&s);
	p_debug("gzip: %s after %zu bytes", rc == Z_STREAM_END ? "end" : s.msg ?: "error", *used);
	return rc == Z_STREAM_END ? 0 : -EINVAL;
}

static int unxz(const void *in, size_t in_len, unsigned char **out, size_t *cap, size_t *used)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret rc = LZMA_OK;

	if (lzma_stream_decoder(&s, UINT64_MAX, 0) != LZMA_OK)
		return -ENOMEM;
	s.next_in = in;
	s.avail_in = in_len;
	while (rc == LZMA_OK) {
		if (!grow(out, cap, *used)) {
			lzma_end(&s);
			return -ENOMEM;
		}
		s.next_out = *out + *used;
		s.avail_out = *cap - *used;
		rc = lzma_code(&s, LZMA_FINISH);
		*used = *cap - s.avail_out;
	}
	lzma_end(&s);
	p_debug("xz: status %d after %zu bytes", (int)rc, *used);
	return rc == LZMA_STREAM_END ? 0 : -EINVAL;
}

static int unzstd(const void *in, size_t in_len, unsigned char **out, size_t *cap, size_t *used)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, in_len, 0 };
	ZSTD_outBuffer ob;
	size_t rc = 1;

	if (!d)
		return -ENOMEM;
	/* The kernel's payload uses a large window; allow what its decompressor allows. */
	ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 31);
	while (rc) {
		if (!grow(out, cap, *used)) {
			ZSTD_freeDStream(d);
			return -ENOMEM;
		}
		ob = (ZSTD_outBuffer){ *out, *cap, *used };
		rc = ZSTD_decompressStream(d, &ob, &ib);
		*used = ob.pos;
		if (ZSTD_isError(rc) || (rc && ib.pos == ib.size && ob.pos < ob.size))
			break;
	}
	ZSTD_freeDStream(d);
	p_debug("zstd: %s after %zu bytes",
		rc ? (ZSTD_isError(rc) ? ZSTD_getErrorName(rc) : "truncated") : "end", *used);
	return rc ? -EINVAL : 0;
}

int decompress_stream(enum compression c, const void *in, size_t in_len, void **out,
		      size_t *out_len)
{
	unsigned char *buf = NULL;
	size_t cap = 0, used = 0;
	int err;

	switch (c) {
	case COMP_GZIP:
		err = gunzip(in, in_len, &buf, &cap, &used);
		break;
	case COMP_XZ:
		err = unxz(in, in_len, &buf, &cap, &used);
		break;
	case COMP_ZSTD:
		err = unzstd(in, in_len, &buf, &cap, &used);
		break;
	default:
		err = -EINVAL;
	}
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	*out_len = used;
	return 0;
}

int decompress_vmlinuz(const void *img, size_t len, void **out, size_t *out_len,
		       enum compression *found)
{
	const unsigned char *p = img, *hit;
	size_t pos = 0, i, best_at, tries = 0;
	void *buf;
	size_t buf_len;
	int best;

	/* Each pass: the earliest magic at or after pos, over all formats. */
	while (pos < len && tries < 64) {
		best = -1;
		best_at = len;
		for (i = 0; i < NR_FORMATS; i++) {
			hit = memmem(p + pos, len - pos, formats[i].magic, formats[i].len);
			if (hit && (size_t)(hit - p) < best_at) {
				best_at = (size_t)(hit - p);
				best = (int)i;
			}
		}
		if (best < 0)
			break;
		tries++;
		p_debug("vmlinuz: trying %s at offset 0x%zx", formats[best].name, best_at);
		if (!decompress_stream(formats[best].c, p + best_at, len - best_at, &buf,
				       &buf_len)) {
			if (buf_len >= 4 && !memcmp(buf, "\177ELF", 4)) {
				*out = buf;
				*out_len = buf_len;
				*found = formats[best].c;
				return 0;
			}
			free(buf);
		}
		pos = best_at + 1;
	}
	return -ENOENT;
}
