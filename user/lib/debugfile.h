/* SPDX-License-Identifier: GPL-2.0 */
/* debugfile.h: the separate debug file of a user-space ELF file, found where gdb and perf look */
#ifndef CP_DEBUGFILE_H
#define CP_DEBUGFILE_H

/* Where distributions install debug files (libc6-dbg, *-dbgsym). */
#define DEBUGFILE_ROOT "/usr/lib/debug"

/*
 * Finds the file that holds the full symbol table (and DWARF) of ELF file @path, in order:
 *   1. DEBUGFILE_ROOT/.build-id/xx/yyyy.debug for @path's GNU build id xxyyyy;
 *   2. its .gnu_debuglink name beside @path, in @path's .debug/ folder and under
 *      DEBUGFILE_ROOT + @path's folder (the CRC32 the link holds must match);
 *   3. debuginfod, when DEBUGINFOD_URLS is set (lib/debuginfod.h: bounded in time).
 * A candidate must have @path's build id (when @path has one) and a .symtab. Returns the
 * path, malloc'd, or NULL with what was tried in *@why (malloc'd, "; "-joined).
 */
char *debugfile_find(const char *path, char **why);

#endif
