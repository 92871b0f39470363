/* SPDX-License-Identifier: GPL-2.0 */
/* glibc_version.h: which glibc a libc.so.6 file is (its banner and build id), and its root */
#ifndef CP_GLIBC_VERSION_H
#define CP_GLIBC_VERSION_H

#include <stddef.h>
#include "buildid.h"

struct glibc_version {
	unsigned int major, minor;	/* 2, 41 */
	char release[64];		/* the banner's words in parentheses, e.g. "Debian GLIBC
				      2.41-12+deb13u5"; "" when it has none */
	char build_id[BUILDID_HEX_MAX]; /* hex; "" when the file has none */
};

/*
 * Reads the version of the glibc in ELF file @path from the banner every libc.so.6 carries
 * ("GNU C Library (RELEASE) stable release version 2.41.", what gnu_get_libc_version() and
 * running libc.so.6 print) and its GNU build id. Returns 0, -ENOENT when @path cannot be
 * read, or -ENODATA when it holds no such banner (not glibc's libc).
 */
int glibc_version_of_file(const char *path, struct glibc_version *v);

#endif
