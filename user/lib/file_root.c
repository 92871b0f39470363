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

/* Appends @comp to @cur ("" is the root): cur + "/" + comp. 0, or -1 when it does not fit. */
static int push(char *cur, size_t size, const char *comp, size_t len)
{
	size_t n = strlen(cur);

	if (n + 1 + len >= size)
		return -1;
	cur[n] = '/';
	memcpy(cur + n + 1, comp, len);
	cur[n + 1 + len] = '\0';
	return 0;
}

char *file_root_resolve(const char *prefix, size_t root_len, const char *path)
{
	char cur[PATH_MAX] = "", rest[PATH_MAX], host[PATH_MAX], link[PATH_MAX], *out;
	int links = 0;
	ssize_t n;

	if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
		return NULL;
	while (rest[0]) {
		const char *comp = rest;
		size_t len, skip;

		while (*comp == '/')
			comp++;
		len = strcspn(comp, "/");
		skip = (size_t)(comp - rest) + len;
		if (!len) {
			rest[0] = '\0';
			break;
		}
		if (len == 1 && comp[0] == '.') {
			memmove(rest, rest + skip, strlen(rest + skip) + 1);
			continue;
		}
		if (len == 2 && comp[0] == '.' && comp[1] == '.') {
			char *slash = strrchr(cur, '/');

			if (slash) /* never above the root */
				*slash = '\0';
			memmove(rest, rest + skip, strlen(rest + skip) + 1);
			continue;
		}
		if (push(cur, sizeof(cur), comp, len))
			return NULL;
		memmove(rest, rest + skip, strlen(rest + skip) + 1);
		snprintf(host, sizeof(host), "%.*s%s", (int)root_len, prefix, cur);
		n = readlink(host, link, sizeof(link) - 1);
		if (n < 0)
			continue; /* not a link (or absent: the caller's open says so) */
		if (++links > 40)
			return NULL;
		link[n] = '\0';
		*strrchr(cur, '/') = '\0'; /* the link's folder */
		if (link[0] == '/')
			cur[0] = '\0';
		if ((size_t)n + 1 + strlen(rest) >= sizeof(rest))
			return NULL;
		memmove(rest + n + 1, rest, strlen(rest) + 1);
		memcpy(rest, link, (size_t)n);
		rest[n] = '/';
	}
	if (asprintf(&out, "%.*s%s", (int)root_len, prefix, cur[0] ? cur : "/") < 0)
		return NULL;
	return out;
}
