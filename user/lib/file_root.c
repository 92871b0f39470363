// SPDX-License-Identifier: GPL-2.0
/* file_root.c: the root a library file belongs to: a process's (/proc/PID/root), a chroot's */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "file_root.h"

/* Where glibc's loader and Debian's packages put libraries, most specific first. */
static const char *const lib_dirs[] = {
	"/usr/lib/x86_64-linux-gnu/",
	"/lib/x86_64-linux-gnu/",
	"/usr/lib64/",
	"/lib64/",
	"/usr/lib/",
	"/lib/",
};

static size_t proc_root_len(const char *path)
{
	unsigned int pid;
	int n = 0;

	if (strncmp(path, "/proc/", 6) || sscanf(path, "/proc/%u/root%n", &pid, &n) != 1 || !n)
		return 0;
	return path[n] == '/' || path[n] == '\0' ? (size_t)n : 0;
}

size_t file_root_len(const char *path)
{
	size_t n = proc_root_len(path), i;
	const char *at;

	if (n)
		return n;
	for (i = 0; i < sizeof(lib_dirs) / sizeof(lib_dirs[0]); i++) {
		at = strstr(path, lib_dirs[i]);
		/* The folder holds the file itself, not a folder of its own below. */
		if (at && at > path && !strchr(at + strlen(lib_dirs[i]), '/'))
			return (size_t)(at - path);
		if (at == path)
			return 0;
	}
	return 0;
}

char *file_root_name(const char *path)
{
	size_t n = file_root_len(path);
	char link[64], buf[PATH_MAX];
	ssize_t len;

	if (!n)
		return strdup("/");
	if (!proc_root_len(path))
		return strndup(path, n);
	snprintf(link, sizeof(link), "%.*s", (int)n, path);
	len = readlink(link, buf, sizeof(buf) - 1);
	if (len <= 0)
		return strndup(path, n);
	buf[len] = '\0';
	return strdup(buf);
}
