// SPDX-License-Identifier: GPL-2.0
/* buildid.c: GNU build ids from ELF note sections, sysfs notes files and ELF files */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include "buildid.h"

#define NOTE_ALIGN(x) (((x) + 3) & ~(size_t)3)

static int to_hex(const unsigned char *id, size_t n, char *hex, size_t size)
{
	size_t i;

	if (!n || 2 * n + 1 > size)
		return -ENOENT;
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	return 0;
}

int buildid_from_notes(const unsigned char *buf, size_t len, char *hex, size_t size)
{
	size_t pos = 0;

	/* Each note: namesz, descsz, type (32-bit words), then name and desc padded to 4. */
	while (pos + 12 <= len) {
		uint32_t w[3];
		size_t name_at = pos + 12, desc_at;

		memcpy(w, buf + pos, sizeof(w));
		desc_at = name_at + NOTE_ALIGN(w[0]);
		if (desc_at < name_at || desc_at + w[1] > len)
			break;
		if (w[2] == NT_GNU_BUILD_ID && w[0] == 4 && !memcmp(buf + name_at, "GNU", 4))
			return to_hex(buf + desc_at, w[1], hex, size);
		pos = desc_at + NOTE_ALIGN(w[1]);
	}
	return -ENOENT;
}

int buildid_kernel(const char *target, char *hex, size_t size)
{
	unsigned char buf[4096];
	char path[256];
	ssize_t n;
	int fd;

	if (!strcmp(target, "vmlinux"))
		snprintf(path, sizeof(path), "/sys/kernel/notes");
	else
		snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", target);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -errno;
	return buildid_from_notes(buf, (size_t)n, hex, size);
}

int buildid_elf(const char *path, char *hex, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = -ENOENT;
	Elf_Scn *scn = NULL;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && err && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf)
			err = buildid_from_notes(d->d_buf, d->d_size, hex, size);
	}
	elf_end(elf);
	close(fd);
	return err;
}
