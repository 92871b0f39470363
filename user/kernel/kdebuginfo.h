/* SPDX-License-Identifier: GPL-2.0 */
/* kdebuginfo.h: find the DWARF file of a kernel or module build (docs/kernel-targets.md#source-lines) */
#ifndef CP_KDEBUGINFO_H
#define CP_KDEBUGINFO_H

#include <stddef.h>

#define KDEBUGINFO_MAX_PATHS 9 /* --debuginfo paths, and --vmlinux */

/*
 * The debug file of kernel @target ("vmlinux" or a module name) of kernel release @release,
 * whose build id is @build_id (hex, may be NULL: then it is not checked). Each of @dirs is a
 * debug file itself, a root holding usr/lib/debug (an unpacked linux-image-*-dbg package), or
 * a folder laid out like usr/lib/debug; "/" (the installed -dbg package) is searched last.
 * Then, with DEBUGINFOD_URLS set and a build id, `debuginfod-find debuginfo` is asked. A file
 * whose build id differs from @build_id is skipped. Returns a new path, or NULL with the
 * places tried in @why (may be NULL; free it).
 */
char *kdebuginfo_find(const char *target, const char *release, const char *build_id,
		      const char *const *dirs, size_t nr_dirs, char **why);

#endif
