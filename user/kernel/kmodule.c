// SPDX-License-Identifier: GPL-2.0
/* kmodule.c: find a module's .ko, decompress it and read one function with its relocations */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "lib/decompress.h"
#include "kmodule.h"
#include "lib/line_reader.h"
#include "lib/log.h"
#include "lib/reason.h"

static const char *const suffixes[] = { "", ".xz", ".zst", ".gz" };
#define NR_SUFFIXES (sizeof(suffixes) / sizeof(suffixes[0]))

/* True if file name @base ("btrfs.ko.xz") is module @module ("btrfs"); '-' equals '_'. */
static bool is_module_file(const char *base, const char *module)
{
	size_t n = strlen(module), i;

	if (strncmp(base + n, ".ko", 3) || strlen(base) < n + 3)
		return false;
	for (i = 0; i < n; i++) {
		char a = base[i] == '-' ? '_' : base[i], b = module[i] == '-' ? '_' : module[i];

		if (a != b)
			return false;
	}
	for (i = 0; i < NR_SUFFIXES; i++)
		if (!strcmp(base + n + 3, suffixes[i]))
			return true;
	return false;
}

/* "@dir/@rel" plus @suffix, or with its compression suffix cut (@cut); NULL if not readable. */
static char *readable(const char *dir, const char *rel, const char *suffix, bool cut)
{
	char *path, *dot;

	if (asprintf(&path, "%s/%s%s", dir, rel, suffix) < 0)
		return NULL;
	dot = strrchr(path, '.');
	if (cut && (!dot || !strcmp(dot, ".ko"))) {
		free(path);
		return NULL;
	}
	if (cut)
		*dot = 0;
	if (!access(path, R_OK))
		return path;
	free(path);
	return NULL;
}

/* @rel as written, without its compression suffix, or with one added: the first that exists. */
static char *existing_variant(const char *dir, const char *rel)
{
	char *path = readable(dir, rel, "", false) ?: readable(dir, rel, "", true);
	size_t i;

	for (i = 1; !path && i < NR_SUFFIXES; i++)
		path = readable(dir, rel, suffixes[i], false);
	return path;
}

static char *find_in_modules_dep(const char *dir, const char *module)
{
	char *path, *line, *colon, *base, *found = NULL;
	struct line_reader r;
	FILE *f;

	if (asprintf(&path, "%s/modules.dep", dir) < 0)
		return NULL;
	f = fopen(path, "r");
	if (!f) {
		free(path);
		return NULL;
	}
	/* A module and its dependencies a line: a few hundred bytes; a few MiB in all. */
	line_reader_init(&r, f, path, "modules.dep", 65536, 64UL << 20);
	while (!found && line_reader_next(&r) > 0) {
		colon = strchr(line = r.line, ':');
		if (!colon)
			continue;
		*colon = 0;
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		if (is_module_file(base, module))
			found = existing_variant(dir, line);
	}
	line_reader_free(&r);
	fclose(f);
	free(path);
	return found;
}

/* nftw has no user pointer: the walk's target and result live here for its duration. */
static const char *walk_module;
static char *walk_found;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (type != FTW_F || !is_module_file(path + ftw->base, walk_module))
		return 0;
	walk_found = strdup(path);
	return 1;
}

char *kmodule_find(const char *modules_dir, const char *module, char **why)
{
	char dir[4096], *found;
	struct utsname u;

	*why = NULL;
	if (modules_dir)
		snprintf(dir, sizeof(dir), "%s", modules_dir);
	else
		snprintf(dir, sizeof(dir), "/lib/modules/%s", uname(&u) ? "" : u.release);
	found = find_in_modules_dep(dir, module);
	if (found)
		return found;
	walk_module = module;
	walk_found = NULL;
	nftw(dir, walk_one, 16, FTW_PHYS);
	found = walk_found;
	walk_found = NULL;
	if (!found)
		reason_fail(why, -ENOENT, "no %s.ko under %s (modules.dep or a walk of the folder)",
			    module, dir);
	return found;
}

static int read_whole(const char *path, void **out, size_t *len)
{
	size_t cap = 1 << 20, used = 0;
	unsigned char *buf = malloc(cap), *b;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf) {
		int err = fd < 0 ? -errno : -ENOMEM;

		free(buf);
		if (fd >= 0)
			close(fd);
		return err;
	}
	while ((n = read(fd, buf + used, cap - used)) > 0) {
		used += (size_t)n;
		if (used == cap) {
			b = realloc(buf, cap *= 2);
			if (!b) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = b;
		}
	}
	close(fd);
	*out = buf;
	*len = used;
	return 0;
}

static int cmp_reloc(const void *a, const void *b)
{
	const struct kmod_reloc *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The relocations of section @shndx that fall inside [@start, @start + @len). */
static int collect_relocs(Elf *elf, size_t shstrndx, Elf_Scn *symscn, size_t shndx, uint64_t start,
			  uint64_t len, struct kmod_func *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, symsh, tsh;
	Elf_Data *data, *syms = elf_getdata(symscn, NULL);
	GElf_Rela r;
	GElf_Sym sym;
	struct kmod_reloc *grown;
	const char *name;
	size_t i, n;

	gelf_getshdr(symscn, &symsh);
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || sh.sh_info != shndx ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (i = 0; i < n; i++) {
			if (!gelf_getrela(data, (int)i, &r) || r.r_offset < start ||
			    r.r_offset >= start + len)
				continue;
			if (!gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym))
				continue;
			name = elf_strptr(elf, symsh.sh_link, sym.st_name);
			if (GELF_ST_TYPE(sym.st_info) == STT_SECTION &&
			    gelf_getshdr(elf_getscn(elf, sym.st_shndx), &tsh))
				name = elf_strptr(elf, shstrndx, tsh.sh_name);
			grown = realloc(out->relocs, (out->nr_relocs + 1) * sizeof(*grown));
			if (!grown)
				return -ENOMEM;
			out->relocs = grown;
			grown[out->nr_relocs++] = (struct kmod_reloc){
				.offset = r.r_offset - start,
				.type = (uint32_t)GELF_R_TYPE(r.r_info),
				.addend = r.r_addend,
				.symbol = strdup(name ?: "?"),
			};
		}
	}
	qsort(out->relocs, out->nr_relocs, sizeof(*out->relocs), cmp_reloc);
	return 0;
}

/* Finds STT_FUNC @func and fills @out's bytes and relocations from the ELF in memory. */
static int read_func(Elf *elf, const char *func, struct kmod_func *out, char **why)
{
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr sh, tsh;
	GElf_Sym sym;
	Elf_Data *data, *text;
	size_t shstrndx, i, n;
	const char *name;

	if (elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx))
		return reason_fail(why, -ENOEXEC, "%s: not an ELF file", out->ko_path);
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			symscn = scn;
	if (!symscn || !gelf_getshdr(symscn, &sh) || !(data = elf_getdata(symscn, NULL)))
		return reason_fail(why, -ENOEXEC, "%s: no symbol table", out->ko_path);
	n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	for (i = 0; i < n; i++) {
		if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (name && !strcmp(name, func))
			break;
	}
	if (i == n)
		return reason_fail(why, -ENOENT, "%s: no function %s in its symbol table",
				   out->ko_path, func);
	scn = elf_getscn(elf, sym.st_shndx);
	if (!scn || !gelf_getshdr(scn, &tsh) || tsh.sh_type != SHT_PROGBITS ||
	    !(text = elf_getdata(scn, NULL)) || sym.st_value + sym.st_size > text->d_size)
		return reason_fail(why, -ENOEXEC, "%s: %s lies outside its section", out->ko_path,
				   func);
	out->len = sym.st_size;
	out->bytes = malloc(out->len ? out->len : 1);
	if (!out->bytes)
		return reason_fail(why, -ENOMEM, "out of memory");
	memcpy(out->bytes, (const char *)text->d_buf + sym.st_value, out->len);
	if (collect_relocs(elf, shstrndx, symscn, sym.st_shndx, sym.st_value, sym.st_size, out))
		return reason_fail(why, -ENOMEM, "out of memory");
	return 0;
}

int kmodule_read_func(const char *path, const char *func, struct kmod_func *out, char **why)
{
	void *file = NULL, *img = NULL;
	size_t file_len = 0, img_len = 0;
	enum compression c;
	Elf *elf;
	int err;

	*why = NULL;
	*out = (struct kmod_func){ .ko_path = strdup(path) };
	err = read_whole(path, &file, &file_len);
	if (err) {
		reason_fail(why, err, "%s: %s", path, strerror(-err));
		goto out;
	}
	c = decompress_detect(file, file_len);
	if (c == COMP_NONE) {
		img = file;
		img_len = file_len;
		file = NULL;
	} else if ((err = decompress_stream(c, file, file_len, &img, &img_len))) {
		reason_fail(why, err, "%s: corrupt %s data", path, decompress_name(c));
		goto out;
	}
	elf_version(EV_CURRENT);
	elf = elf_memory(img, img_len);
	if (!elf) {
		err = reason_fail(why, -ENOEXEC, "%s: %s", path, elf_errmsg(-1));
		goto out;
	}
	err = read_func(elf, func, out, why);
	elf_end(elf);
out:
	free(file);
	free(img);
	if (err)
		kmod_func_free(out);
	return err;
}

void kmod_func_free(struct kmod_func *f)
{
	size_t i;

	for (i = 0; i < f->nr_relocs; i++)
		free(f->relocs[i].symbol);
	free(f->relocs);
	free(f->bytes);
	free(f->ko_path);
	*f = (struct kmod_func){ 0 };
}
