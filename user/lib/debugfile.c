// SPDX-License-Identifier: GPL-2.0
/* debugfile.c: build-id links, .gnu_debuglink and debuginfod, each candidate verified */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gelf.h>
#include <zlib.h>
#include "buildid.h"
#include "debugfile.h"
#include "debuginfod.h"
#include "file_root.h"
#include "reason.h"

struct debuglink {
	char name[NAME_MAX + 1];
	uint32_t crc;
	bool found;
};

static bool has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB && sh.sh_size)
			return true;
	return false;
}

/* .gnu_debuglink: a NUL-terminated file name, padded to 4 bytes, then its CRC32. */
static void read_debuglink(Elf *elf, struct debuglink *l)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name =
			gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		Elf_Data *d;
		size_t len, crc_at;

		if (!name || strcmp(name, ".gnu_debuglink") || sh.sh_type == SHT_NOBITS)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || !d->d_size)
			return;
		len = strnlen(d->d_buf, d->d_size);
		crc_at = (len + 4) & ~(size_t)3;
		if (!len || len > NAME_MAX || strchr(d->d_buf, '/') || crc_at + 4 > d->d_size)
			return;
		memcpy(l->name, d->d_buf, len);
		l->name[len] = 0;
		memcpy(&l->crc, (const char *)d->d_buf + crc_at, 4);
		l->found = true;
		return;
	}
}

static bool crc_matches(int fd, uint32_t want)
{
	unsigned char buf[65536];
	uLong crc = crc32(0L, Z_NULL, 0);
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		crc = crc32(crc, buf, (uInt)n);
	return n == 0 && (uint32_t)crc == want;
}

/*
 * Whether @cand is the debug file of a file with build id @id (NULL: none) and, for a
 * debuglink candidate, the CRC @crc. Says why not in @why.
 */
static bool candidate_ok(const char *cand, const char *id, const struct debuglink *link, char **why)
{
	char cand_id[BUILDID_HEX_MAX] = "none";
	int fd = open(cand, O_RDONLY | O_CLOEXEC);
	bool ok = false;
	struct stat st;
	Elf *elf;

	if (fd < 0)
		return false; /* not there: the common case, not worth a word */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		reason_add(why, "%s is not an ELF file", cand);
	} else if (id && (buildid_elf(cand, cand_id, sizeof(cand_id)) || strcmp(cand_id, id))) {
		reason_add(why, "%s is the debug file of another build (build id %s, want %s)",
			   cand, cand_id, id);
	} else if (!id && link && !crc_matches(fd, link->crc)) {
		reason_add(why, "%s does not match the CRC in .gnu_debuglink", cand);
	} else if (!has_symtab(elf)) {
		reason_add(why, "%s has no symbol table", cand);
	} else {
		ok = true;
	}
	elf_end(elf);
	close(fd);
	return ok;
}

static char *try_debuglink(const char *path, const char *id, const struct debuglink *l, char **why)
{
	char dir[PATH_MAX], cand[PATH_MAX * 2];
	const char *slash = strrchr(path, '/');
	int i;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	for (i = 0; i < 3; i++) {
		if (i == 0)
			snprintf(cand, sizeof(cand), "%s/%s", dir, l->name);
		else if (i == 1)
			snprintf(cand, sizeof(cand), "%s/.debug/%s", dir, l->name);
		else
			snprintf(cand, sizeof(cand), "%s%s/%s", DEBUGFILE_ROOT, dir, l->name);
		/* The link may name the file itself (objcopy --only-keep-debug kept the name). */
		if (!strcmp(cand, path))
			continue;
		if (candidate_ok(cand, id, l, why))
			return strdup(cand);
	}
	reason_add(why, "no %s beside %s, in %s/.debug or under %s%s", l->name, path, dir,
		   DEBUGFILE_ROOT, dir);
	return NULL;
}

char *debugfile_find(const char *path, char **why)
{
	char id[BUILDID_HEX_MAX], cand[PATH_MAX], *found = NULL;
	struct debuglink link = { .found = false };
	bool have_id = !buildid_elf(path, id, sizeof(id));
	size_t root_len = file_root_len(path);
	int fd;

	*why = NULL;
	if (have_id && root_len) {
		/* A file seen through a process's root: its debug file is in that root first. */
		char *in_root;

		snprintf(cand, sizeof(cand), "%s/.build-id/%.2s/%s.debug", DEBUGFILE_ROOT, id,
			 id + 2);
		in_root = file_root_resolve(path, root_len, cand);
		if (in_root && candidate_ok(in_root, id, NULL, why))
			return in_root;
		reason_add(why, "no %.*s%s", (int)root_len, path, cand);
		free(in_root);
	}
	if (have_id) {
		snprintf(cand, sizeof(cand), "%s/.build-id/%.2s/%s.debug", DEBUGFILE_ROOT, id,
			 id + 2);
		if (candidate_ok(cand, id, NULL, why))
			return strdup(cand);
		reason_add(why, "no %s", cand);
	} else {
		reason_add(why, "%s has no GNU build id", path);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		Elf *elf;

		elf_version(EV_CURRENT);
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		if (elf)
			read_debuglink(elf, &link);
		elf_end(elf);
		close(fd);
	}
	if (link.found)
		found = try_debuglink(path, have_id ? id : NULL, &link, why);
	if (!found && have_id && getenv("DEBUGINFOD_URLS")) {
		char *fetched = debuginfod_query(id, why);

		if (fetched && candidate_ok(fetched, id, NULL, why))
			found = fetched;
		else
			free(fetched);
	} else if (!found && have_id) {
		reason_add(why, "DEBUGINFOD_URLS is not set");
	}
	if (found) {
		free(*why);
		*why = NULL;
	}
	return found;
}
