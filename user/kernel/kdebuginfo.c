// SPDX-License-Identifier: GPL-2.0
/* kdebuginfo.c: search debug roots, build-id links and debuginfod for a kernel's DWARF */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gelf.h>
#include "lib/buildid.h"
#include "lib/debuginfod.h"
#include "kdebuginfo.h"
#include "lib/log.h"
#include "lib/reason.h"

struct search {
	const char *target, *release, *build_id;
	char *found;
	char *why; /* "; "-joined notes: what was rejected and why */
};

/* Whether ELF file @path carries DWARF: a stripped module has the same build id as its debug file. */
static bool has_dwarf(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool found = false;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *elf;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && !elf_getshdrstrndx(elf, &shstrndx))
		while (!found && (scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *name = gelf_getshdr(scn, &sh)
						   ? elf_strptr(elf, shstrndx, sh.sh_name)
						   : NULL;

			found = name && sh.sh_type != SHT_NOBITS &&
				(!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info"));
		}
	elf_end(elf);
	close(fd);
	return found;
}

/* Takes @path if it is a file of the right build; true when the search is over. */
static bool try_file(struct search *s, const char *path)
{
	char id[BUILDID_HEX_MAX] = "none";
	struct stat st;

	if (s->found)
		return true;
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	if (s->build_id && (buildid_elf(path, id, sizeof(id)) || strcmp(id, s->build_id))) {
		reason_add(&s->why, "%s is another build (build id %s, want %s)", path, id,
			   s->build_id);
		return false;
	}
	if (!has_dwarf(path)) {
		reason_add(&s->why, "%s has no DWARF", path);
		return false;
	}
	s->found = strdup(path);
	return true;
}

/* Module files name modules with '-' or '_' interchangeably: compare them as equal. */
static bool same_module(const char *file, const char *module)
{
	for (; *file && *module; file++, module++)
		if (*file != *module && !(strchr("-_", *file) && strchr("-_", *module)))
			return false;
	return !*module && (!strcmp(file, ".ko") || !strcmp(file, ".ko.debug"));
}

static struct search *walking; /* nftw has no user pointer */

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (type != FTW_F || !same_module(path + ftw->base, walking->target))
		return 0;
	return try_file(walking, path) ? 1 : 0;
}

static void try_module_tree(struct search *s, const char *dir)
{
	struct stat st;

	if (s->found || stat(dir, &st) || !S_ISDIR(st.st_mode))
		return;
	walking = s;
	nftw(dir, visit, 16, FTW_PHYS);
	walking = NULL;
}

/* The places a root (or a usr/lib/debug-like folder) keeps this target's debug file. */
static void try_root(struct search *s, const char *root)
{
	static const char *const debug[] = { "/usr/lib/debug", "" };
	const char *r = strcmp(root, "/") ? root : "";
	char p[PATH_MAX];
	size_t i;

	/* "/" is only its usr/lib/debug: /lib/modules holds the stripped modules. */
	for (i = 0; i < (*r ? 2 : 1) && !s->found; i++) {
		if (s->build_id) {
			snprintf(p, sizeof(p), "%s%s/.build-id/%.2s/%s.debug", r, debug[i],
				 s->build_id, s->build_id + 2);
			if (try_file(s, p))
				break;
		}
		if (!s->release)
			continue;
		if (!strcmp(s->target, "vmlinux")) {
			snprintf(p, sizeof(p), "%s%s/boot/vmlinux-%s", r, debug[i], s->release);
			if (try_file(s, p))
				break;
			snprintf(p, sizeof(p), "%s%s/lib/modules/%s/vmlinux", r, debug[i],
				 s->release);
			try_file(s, p);
		} else {
			snprintf(p, sizeof(p), "%s%s/lib/modules/%s", r, debug[i], s->release);
			try_module_tree(s, p);
		}
	}
}

/* debuginfod, when DEBUGINFOD_URLS is set: bounded in time (lib/debuginfod.h). */
static void try_debuginfod(struct search *s)
{
	char *path;

	if (s->found || !s->build_id || !getenv("DEBUGINFOD_URLS"))
		return;
	path = debuginfod_query(s->build_id, &s->why);
	if (path)
		try_file(s, path);
	free(path);
}

char *kdebuginfo_find(const char *target, const char *release, const char *build_id,
		      const char *const *dirs, size_t nr_dirs, char **why)
{
	struct search s = { .target = target, .release = release, .build_id = build_id };
	struct stat st;
	size_t i;

	for (i = 0; i < nr_dirs && !s.found; i++) {
		const char *base = strrchr(dirs[i], '/') ? strrchr(dirs[i], '/') + 1 : dirs[i];

		/* A file given directly is vmlinux, or the module it is named after. */
		if (!stat(dirs[i], &st) && S_ISREG(st.st_mode)) {
			if (strcmp(target, "vmlinux") ? same_module(base, target)
						      : !strstr(base, ".ko"))
				try_file(&s, dirs[i]);
		} else
			try_root(&s, dirs[i]);
	}
	try_root(&s, "/");
	try_debuginfod(&s);
	if (!s.found)
		reason_add(&s.why, "no %s%s%s under %s/usr/lib/debug%s", target,
			   release ? " for " : "", release ?: "", nr_dirs ? "--debuginfo and " : "",
			   getenv("DEBUGINFOD_URLS") ? "" : ", DEBUGINFOD_URLS not set");
	if (why)
		*why = s.why;
	else
		free(s.why);
	return s.found;
}
