/* SPDX-License-Identifier: GPL-2.0 */
/* fuzz_file.h: a fuzz input as a file path (a memfd) for parsers that take a path, and quiet logs */
#ifndef CP_FUZZ_FILE_H
#define CP_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lib/log.h"

/*
 * The parsers read real files by path, as the commands do: the input is written into one
 * memfd, truncated to its size, and read through /proc/self/fd/N (a fresh open, offset 0).
 * Errors go to stdout as JSON lines (log_json), which the CLI test discards with
 * -close_fd_mask=1; sanitizer reports stay on stderr. A target that reads two files (diff)
 * gives each its own slot.
 */
#define FUZZ_FILE_SLOTS 3

static inline const char *fuzz_file_slot(int slot, const uint8_t *data, size_t size)
{
	static char path[FUZZ_FILE_SLOTS][64];
	static int fd[FUZZ_FILE_SLOTS] = { -1, -1, -1 };

	if (fd[slot] < 0) {
		fd[slot] = memfd_create("fuzz-input", 0);
		if (fd[slot] < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path[slot], sizeof(path[slot]), "/proc/self/fd/%d", fd[slot]);
		log_json = true;
	}
	if (ftruncate(fd[slot], 0) || (size && pwrite(fd[slot], data, size, 0) != (ssize_t)size)) {
		perror("memfd write");
		abort();
	}
	return path[slot];
}

/* The input as the one file a parser reads. */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	return fuzz_file_slot(0, data, size);
}

#endif
