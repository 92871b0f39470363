// SPDX-License-Identifier: GPL-2.0
/* diff_input.c: the two files diff compares, read and checked; or the same file twice */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/log.h"
#include "profile_diff.h"

bool profile_diff_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	FILE *fa, *fb;
	bool same = false;
	char x[65536], y[65536];
	size_t na, nb;

	if (stat(a, &sa) || stat(b, &sb))
		return false;
	if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
		return true;
	if (sa.st_size != sb.st_size || !S_ISREG(sa.st_mode) || !S_ISREG(sb.st_mode))
		return false;
	fa = fopen(a, "rb");
	fb = fopen(b, "rb");
	if (fa && fb) {
		do {
			na = fread(x, 1, sizeof(x), fa);
			nb = fread(y, 1, sizeof(y), fb);
			same = na == nb && !memcmp(x, y, na);
		} while (same && na == sizeof(x));
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

int profile_diff_open(const char *const path[2], const struct profile_diff_opts *o,
		      struct profile *p[2], struct profile_diff *d)
{
	int err;

	p[0] = p[1] = NULL;
	/* The one reader every command uses: its limits, strict JSON and messages. */
	err = profile_read(path[0], &p[0]);
	if (!err)
		err = profile_read(path[1], &p[1]);
	if (!err)
		err = profile_diff_check(p[0], path[0], p[1], path[1]);
	if (!err)
		err = profile_diff_build(p[0], p[1], o, d);
	if (err) {
		profile_free(p[0]);
		profile_free(p[1]);
		p[0] = p[1] = NULL;
	}
	return err;
}
