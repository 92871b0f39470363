// SPDX-License-Identifier: GPL-2.0
/* glibc_version.c: which glibc a libc.so.6 file is (its banner and build id), and its root */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "glibc_version.h"

/* The banner: "GNU C Library (Debian GLIBC 2.41-12+deb13u5) stable release version 2.41." */
static int parse_banner(const char *p, const char *end, struct glibc_version *v)
{
	static const char key[] = "release version ";
	const char *nul = memchr(p, '\0', (size_t)(end - p));
	const char *open, *close, *at;
	char text[256];
	size_t len = (size_t)((nul ? nul : end) - p);

	if (len >= sizeof(text))
		len = sizeof(text) - 1;
	memcpy(text, p, len);
	text[len] = '\0';
	at = strstr(text, key);
	if (!at || sscanf(at + sizeof(key) - 1, "%u.%u", &v->major, &v->minor) != 2)
		return -ENODATA;
	open = strchr(text, '(');
	close = open ? strchr(open, ')') : NULL;
	if (open && close && close < at)
		snprintf(v->release, sizeof(v->release), "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

int glibc_version_of_file(const char *path, struct glibc_version *v)
{
	static const char mark[] = "GNU C Library ";
	const char *p, *end;
	struct stat st;
	void *map;
	int fd, err = -ENODATA;

	memset(v, 0, sizeof(*v));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return -ENOENT;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -ENOENT;
	end = (const char *)map + st.st_size;
	for (p = map; (p = memmem(p, (size_t)(end - p), mark, sizeof(mark) - 1)); p++)
		if (!parse_banner(p, end, v)) {
			err = 0;
			break;
		}
	munmap(map, (size_t)st.st_size);
	if (!err && buildid_elf(path, v->build_id, sizeof(v->build_id)))
		v->build_id[0] = '\0';
	return err;
}
