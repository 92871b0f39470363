/* SPDX-License-Identifier: GPL-2.0 */
/* buildid.h: GNU build ids of ELF files and of the running kernel and its modules */
#ifndef CP_BUILDID_H
#define CP_BUILDID_H

#include <stddef.h>

#define BUILDID_HEX_MAX 129 /* 64 bytes of id as hex, and the NUL */

/* The NT_GNU_BUILD_ID note in raw ELF notes @buf, as hex into @hex. Returns 0 or -ENOENT. */
int buildid_from_notes(const unsigned char *buf, size_t len, char *hex, size_t size);
/*
 * The running kernel's build id for @target: "vmlinux" (/sys/kernel/notes) or a module name
 * (/sys/module/NAME/notes/.note.gnu.build-id). Returns 0, or -errno when it cannot be read.
 */
int buildid_kernel(const char *target, char *hex, size_t size);
/* The build id of ELF file @path. Returns 0, -ENOENT (no note) or -errno. */
int buildid_elf(const char *path, char *hex, size_t size);

#endif
