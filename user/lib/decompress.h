/* SPDX-License-Identifier: GPL-2.0 */
/* decompress.h: gzip, xz and zstd streams in memory (vmlinuz payloads, .ko.gz/.ko.xz/.ko.zst) */
#ifndef CP_DECOMPRESS_H
#define CP_DECOMPRESS_H

#include <stddef.h>

enum compression { COMP_NONE, COMP_GZIP, COMP_XZ, COMP_ZSTD };

/* The format whose magic starts @buf (COMP_NONE if none does). */
enum compression decompress_detect(const void *buf, size_t len);
const char *decompress_name(enum compression c);
/*
 * Decompresses the first stream of format @c in @in into a new buffer *@out of *@out_len
 * bytes; bytes after the end of the stream are ignored (a vmlinuz payload is followed by
 * its size). Returns 0, or -EINVAL (corrupt or truncated), -ENOMEM; messages only with -v.
 */
int decompress_stream(enum compression c, const void *in, size_t in_len, void **out,
		      size_t *out_len);
/*
 * Finds the kernel image in a bzImage (vmlinuz): tries each gzip/xz/zstd magic in @img in
 * file order and keeps the first stream that decompresses to an ELF file. Returns 0 with the
 * format in *@found, or -ENOENT.
 */
int decompress_vmlinuz(const void *img, size_t len, void **out, size_t *out_len,
		       enum compression *found);

#endif
