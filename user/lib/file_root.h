/* SPDX-License-Identifier: GPL-2.0 */
/* file_root.h: the root a library file belongs to: a process's (/proc/PID/root), a chroot's */
#ifndef CP_FILE_ROOT_H
#define CP_FILE_ROOT_H

#include <stddef.h>

/*
 * The length of the root directory that library file @path lies under, as a prefix of @path:
 * the "/proc/PID/root" it begins with (a process's root: a chroot or a container's mount
 * namespace), else what comes before a system library folder (/usr/lib/x86_64-linux-gnu,
 * /lib/x86_64-linux-gnu, /usr/lib64, /lib64, /usr/lib, /lib: "/srv/r/usr/lib/.../libc.so.6"
 * lies under "/srv/r"); 0 for a file of this system's own root. Prepending the prefix to a
 * path of that root (its loader, /usr/lib/debug) names that root's file from here.
 */
size_t file_root_len(const char *path);

/*
 * That root as this system names it, malloc'd: "/" for ours, the prefix itself, or for
 * /proc/PID/root the directory it links to (readlink: a chroot's directory, "/" for a process
 * in another mount namespace). NULL if out of memory.
 */
char *file_root_name(const char *path);

/*
 * @path, a path inside the root @root_len bytes of @prefix name (file_root_len()), as this
 * system reaches it: every symlink on the way followed as a process of that root would, an
 * absolute target taken from that root, not from ours ("/srv/r" + "/lib64/ld.so" through
 * lib64 -> /usr/lib64 is "/srv/r/usr/lib64/ld.so"). malloc'd; NULL if a component cannot be
 * read, or after 40 links.
 */
char *file_root_resolve(const char *prefix, size_t root_len, const char *path);

#endif
