/* SPDX-License-Identifier: GPL-2.0 */
/* proc_maps.h: a process's file mappings from /proc/PID/maps: an address to (file, offset) */
#ifndef CP_PROC_MAPS_H
#define CP_PROC_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct proc_map {
	uint64_t start, end; /* [start, end) in the process */
	uint64_t pgoff;	     /* file offset of start */
	uint32_t dev;	     /* the file's device, the kernel's encoding (major << 20 | minor) */
	uint64_t ino;
	char *path; /* the mapped file; NULL for anonymous memory, "[vdso]" and the like */
};

struct proc_maps {
	struct proc_map *maps; /* sorted by start, as the kernel lists them */
	size_t nr;
};

/* Reads /proc/@pid/maps (file mappings only). 0, or -errno when it cannot be read. */
int proc_maps_read(uint32_t pid, struct proc_maps *out);
/* The mapping holding @addr, or NULL. */
const struct proc_map *proc_maps_find(const struct proc_maps *m, uint64_t addr);
void proc_maps_free(struct proc_maps *m);
/*
 * Whether some process maps the file (@st_dev, @ino) as stat names it. A file system whose
 * maps show another device than stat (btrfs subvolumes, overlayfs) is matched by @ino and
 * @path, or "@path (deleted)" once it was replaced. Processes that cannot be read are
 * passed over; without /proc: true.
 */
bool proc_maps_file_mapped(uint64_t st_dev, uint64_t ino, const char *path);
/* The kernel's device number encoding (as struct super_block's s_dev) of a stat st_dev. */
uint32_t proc_maps_kdev(uint64_t st_dev);

#endif
