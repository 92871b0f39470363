/* SPDX-License-Identifier: GPL-2.0 */
/* user_syms.h: user-space addresses named as DSO:FUNC+OFF, by process maps and ELF symbols */
#ifndef CP_USER_SYMS_H
#define CP_USER_SYMS_H

#include <stdbool.h>
#include <stdint.h>

struct user_syms;

/* A user-space place, named. */
struct user_place {
	const char *path; /* the file (owned by user_syms), or NULL: not in a mapped file */
	const char *sym;  /* the function, or NULL: no symbol covers it */
	uint64_t off;	  /* in sym; without sym, the link-time address in path (addr2line) */
};

struct user_syms *user_syms_new(void);
void user_syms_free(struct user_syms *u);
/*
 * Reads process @tgid's maps now, while it runs (a process's addresses can only be named from
 * its maps, which are gone when it exits), unless read already. 0, or -errno (it is gone).
 */
int user_syms_watch(struct user_syms *u, uint32_t tgid);
/* Names @addr in process @tgid (its maps read by user_syms_watch, or now). 0 or -ENOENT. */
int user_syms_name(struct user_syms *u, uint32_t tgid, uint64_t addr, struct user_place *out);
/* A file the recording knows of (a uprobe target, the COMMAND): for user_syms_name_file. */
void user_syms_know_file(struct user_syms *u, const char *path);
/*
 * Names offset @off of the file with device @dev (kernel encoding) and inode @ino, as a BPF
 * program saw it (bpf_find_vma): the file is found among the known files, the watched
 * processes' maps and, last, every process's maps. 0 or -ENOENT.
 */
int user_syms_name_file(struct user_syms *u, uint32_t dev, uint64_t ino, uint64_t off,
			struct user_place *out);

#endif
