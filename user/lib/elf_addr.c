// SPDX-License-Identifier: GPL-2.0
/* elf_addr.c: name a place in a user-space ELF file (a file offset) as FUNC+OFF, with libelf */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "buildid.h"
#include "elf_addr.h"

struct elf_sym {
	uint64_t addr, size;
	char *name;
};

struct elf_seg {
	uint64_t off, filesz, vaddr;
};

struct elf_file {
	char *path;
	int err; /* why it could not be read, or 0 */
	struct elf_seg *segs;
	size_t nr_segs;
	struct elf_sym *syms; /* sorted by address; one per address */
	size_t nr_syms;
	bool has_symtab;
};

struct elf_addrs {
	struct elf_file *files;
	size_t nr, cap;
};

struct elf_addrs *elf_addrs_new(void)
{
	return calloc(1, sizeof(struct elf_addrs));
}

static void file_free(struct elf_file *f)
{
	size_t i;

	for (i = 0; i < f->nr_syms; i++)
		free(f->syms[i].name);
	free(f->syms);
	free(f->segs);
	free(f->path);
}

void elf_addrs_free(struct elf_addrs *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr; i++)
		file_free(&c->files[i]);
	free(c->files);
	free(c);
}

static int add_sym(struct elf_file *f, size_t *cap, uint64_t addr, uint64_t size, const char *name)
{
	if (f->nr_syms == *cap) {
		struct elf_sym *n = realloc(f->syms, (*cap = *cap ? 2 * *cap : 256) * sizeof(*n));

		if (!n)
			return -ENOMEM;
		f->syms = n;
	}
	f->syms[f->nr_syms].name = strdup(name);
	if (!f->syms[f->nr_syms].name)
		return -ENOMEM;
	f->syms[f->nr_syms].addr = addr;
	f->syms[f->nr_syms++].size = size;
	return 0;
}

/* The defined functions of every table of @type (SHT_SYMTAB, SHT_DYNSYM) in @elf. */
static int read_syms(Elf *elf, struct elf_file *f, size_t *cap, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	int found = 0, err;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		found = 1;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Sym s;
			const char *name;
			int t;

			if (!gelf_getsym(data, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
			    !s.st_value)
				continue;
			t = GELF_ST_TYPE(s.st_info);
			if (t != STT_FUNC && t != STT_GNU_IFUNC)
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (name && *name && (err = add_sym(f, cap, s.st_value, s.st_size, name)))
				return err;
		}
	}
	return found;
}

static int sym_cmp(const void *x, const void *y)
{
	const struct elf_sym *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* At one address, the sized one first, then by name: reproducible. */
	if ((a->size == 0) != (b->size == 0))
		return a->size ? -1 : 1;
	return strcmp(a->name, b->name);
}

static Elf *open_elf(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	return elf_begin(*fd, ELF_C_READ_MMAP, NULL);
}

/* A stripped file's functions from its debug file, found by build id. */
static int read_debug_syms(struct elf_file *f, size_t *cap)
{
	char id[BUILDID_HEX_MAX], path[300];
	Elf *elf;
	int fd, err = 0;

	if (buildid_elf(f->path, id, sizeof(id)) || strlen(id) < 3)
		return 0;
	snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2);
	elf = open_elf(path, &fd);
	if (elf) {
		err = read_syms(elf, f, cap, SHT_SYMTAB);
		elf_end(elf);
	}
	if (fd >= 0)
		close(fd);
	return err < 0 ? err : 0;
}

static int load(struct elf_file *f)
{
	size_t i, n, cap = 0, out = 0;
	Elf *elf;
	int fd, err = 0;

	elf = open_elf(f->path, &fd);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &n)) {
		err = fd < 0 ? -errno : -ENOEXEC;
		goto out;
	}
	f->segs = calloc(n ?: 1, sizeof(*f->segs));
	if (!f->segs) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			f->segs[f->nr_segs++] =
				(struct elf_seg){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
	}
	err = read_syms(elf, f, &cap, SHT_SYMTAB);
	f->has_symtab = err > 0;
	if (err >= 0 && !f->has_symtab)
		err = read_debug_syms(f, &cap);
	if (err >= 0)
		err = read_syms(elf, f, &cap, SHT_DYNSYM);
	err = err < 0 ? err : 0;
	if (!err && f->nr_syms) {
		qsort(f->syms, f->nr_syms, sizeof(*f->syms), sym_cmp);
		/* One symbol per address: aliases (memcpy, __memcpy) name the same code. */
		for (i = 0; i < f->nr_syms; i++) {
			if (out && f->syms[out - 1].addr == f->syms[i].addr) {
				free(f->syms[i].name);
				continue;
			}
			f->syms[out++] = f->syms[i];
		}
		f->nr_syms = out;
	}
out:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return err;
}

static struct elf_file *file_of(struct elf_addrs *c, const char *path)
{
	struct elf_file *f;
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->files[i].path, path))
			return &c->files[i];
	if (c->nr == c->cap) {
		f = realloc(c->files, (c->cap = c->cap ? 2 * c->cap : 16) * sizeof(*f));
		if (!f)
			return NULL;
		c->files = f;
	}
	f = &c->files[c->nr];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	c->nr++;
	f->err = load(f);
	return f;
}

int elf_addrs_name(struct elf_addrs *c, const char *path, uint64_t off, uint64_t *vaddr,
		   const char **sym, uint64_t *sym_off)
{
	struct elf_file *f = file_of(c, path);
	size_t i, lo = 0, hi;
	const struct elf_sym *s;

	*sym = NULL;
	*sym_off = 0;
	if (!f)
		return -ENOMEM;
	if (f->err)
		return f->err;
	for (i = 0; i < f->nr_segs; i++)
		if (off >= f->segs[i].off && off < f->segs[i].off + f->segs[i].filesz)
			break;
	if (i == f->nr_segs)
		return -ERANGE;
	*vaddr = off - f->segs[i].off + f->segs[i].vaddr;
	/* The last function starting at or before the address. */
	for (hi = f->nr_syms; lo < hi;) {
		size_t mid = (lo + hi) / 2;

		if (f->syms[mid].addr <= *vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	s = &f->syms[lo - 1];
	/* Sized: it must hold the address. Unsized (hand-written assembly): the nearest. */
	if (s->size && *vaddr >= s->addr + s->size)
		return -ENOENT;
	*sym = s->name;
	*sym_off = *vaddr - s->addr;
	return 0;
}
