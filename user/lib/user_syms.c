// SPDX-License-Identifier: GPL-2.0
/* user_syms.c: user-space addresses named as DSO:FUNC+OFF, by process maps and ELF symbols */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "elf_addr.h"
#include "proc_maps.h"
#include "user_syms.h"

struct watched {
	uint32_t tgid;
	int err; /* why its maps could not be read, or 0 */
	struct proc_maps maps;
};

/* A file by identity: what a BPF program sees of it (device and inode) and where it is. */
struct known_file {
	uint32_t dev;
	uint64_t ino;
	char *path;
};

struct user_syms {
	struct elf_addrs *elf;
	struct watched *procs;
	size_t nr_procs, cap_procs;
	struct known_file *files;
	size_t nr_files, cap_files;
	bool scanned_all; /* every process's maps were searched once for unknown files */
};

struct user_syms *user_syms_new(void)
{
	struct user_syms *u = calloc(1, sizeof(*u));

	if (u && !(u->elf = elf_addrs_new())) {
		free(u);
		return NULL;
	}
	return u;
}

void user_syms_free(struct user_syms *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->nr_procs; i++)
		proc_maps_free(&u->procs[i].maps);
	for (i = 0; i < u->nr_files; i++)
		free(u->files[i].path);
	free(u->procs);
	free(u->files);
	elf_addrs_free(u->elf);
	free(u);
}

static void add_file(struct user_syms *u, uint32_t dev, uint64_t ino, const char *path)
{
	size_t i;
	char *copy;

	for (i = 0; i < u->nr_files; i++)
		if (u->files[i].dev == dev && u->files[i].ino == ino)
			return;
	if (u->nr_files == u->cap_files) {
		struct known_file *n =
			realloc(u->files,
				(u->cap_files = u->cap_files ? 2 * u->cap_files : 32) * sizeof(*n));

		if (!n)
			return;
		u->files = n;
	}
	copy = strdup(path);
	if (copy)
		u->files[u->nr_files++] = (struct known_file){ dev, ino, copy };
}

static void add_maps_files(struct user_syms *u, const struct proc_maps *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		add_file(u, m->maps[i].dev, m->maps[i].ino, m->maps[i].path);
}

void user_syms_know_file(struct user_syms *u, const char *path)
{
	struct stat st;

	if (path && !stat(path, &st))
		add_file(u, proc_maps_kdev(st.st_dev), st.st_ino, path);
}

static struct watched *find_proc(struct user_syms *u, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < u->nr_procs; i++)
		if (u->procs[i].tgid == tgid)
			return &u->procs[i];
	return NULL;
}

int user_syms_watch(struct user_syms *u, uint32_t tgid)
{
	struct watched *w = find_proc(u, tgid);

	if (w)
		return w->err;
	if (u->nr_procs == u->cap_procs) {
		w = realloc(u->procs,
			    (u->cap_procs = u->cap_procs ? 2 * u->cap_procs : 32) * sizeof(*w));
		if (!w)
			return -ENOMEM;
		u->procs = w;
	}
	w = &u->procs[u->nr_procs++];
	memset(w, 0, sizeof(*w));
	w->tgid = tgid;
	w->err = proc_maps_read(tgid, &w->maps);
	if (!w->err)
		add_maps_files(u, &w->maps);
	return w->err;
}

/* A file offset in @path, named. */
static int name_in(struct user_syms *u, const char *path, uint64_t off, struct user_place *out)
{
	uint64_t vaddr = 0;
	int err = elf_addrs_name(u->elf, path, off, &vaddr, &out->sym, &out->off);

	out->path = path;
	if (err == -ENOENT) {
		out->sym = NULL;
		out->off = vaddr;
		return 0;
	}
	if (err) {
		out->sym = NULL;
		out->off = off;
	}
	return 0;
}

int user_syms_name(struct user_syms *u, uint32_t tgid, uint64_t addr, struct user_place *out)
{
	const struct proc_map *m;
	struct watched *w;

	*out = (struct user_place){ 0 };
	user_syms_watch(u, tgid);
	w = find_proc(u, tgid);
	m = w && !w->err ? proc_maps_find(&w->maps, addr) : NULL;
	if (!m)
		return -ENOENT;
	return name_in(u, m->path, addr - m->start + m->pgoff, out);
}

static const struct known_file *find_file(const struct user_syms *u, uint32_t dev, uint64_t ino)
{
	size_t i;

	for (i = 0; i < u->nr_files; i++)
		if (u->files[i].dev == dev && u->files[i].ino == ino)
			return &u->files[i];
	return NULL;
}

/* Every running process's maps, once: a file mapped by some process is named by its path. */
static void scan_all(struct user_syms *u)
{
	struct dirent *de;
	DIR *d;

	u->scanned_all = true;
	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		struct proc_maps m;
		char *end;
		unsigned long pid = strtoul(de->d_name, &end, 10);

		if (*end || !pid || proc_maps_read((uint32_t)pid, &m))
			continue;
		add_maps_files(u, &m);
		proc_maps_free(&m);
	}
	if (d)
		closedir(d);
}

int user_syms_name_file(struct user_syms *u, uint32_t dev, uint64_t ino, uint64_t off,
			struct user_place *out)
{
	const struct known_file *f = find_file(u, dev, ino);

	*out = (struct user_place){ 0 };
	if (!f && !u->scanned_all) {
		scan_all(u);
		f = find_file(u, dev, ino);
	}
	if (!f)
		return -ENOENT;
	return name_in(u, f->path, off, out);
}
