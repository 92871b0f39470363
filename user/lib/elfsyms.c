// SPDX-License-Identifier: GPL-2.0
/* elfsyms.c: symbol lookup in user-space ELF files for uprobes */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elfsyms.h"
#include "insn_bound.h"
#include "log.h"

static const char *const lib_dirs[] = {
	"/lib/x86_64-linux-gnu",
	"/usr/lib/x86_64-linux-gnu",
	"/lib64",
	"/usr/lib64",
	"/lib",
	"/usr/lib",
	"/usr/local/lib",
};

static char *try_path(const char *dir, size_t len, const char *name)
{
	char *p;

	if (asprintf(&p, "%.*s/%s", (int)len, dir, name) < 0)
		return NULL;
	if (!access(p, R_OK))
		return p;
	free(p);
	return NULL;
}

char *elfsyms_find_file(const char *name)
{
	const char *path = getenv("PATH"), *colon;
	char *p;
	size_t i;

	if (strchr(name, '/'))
		return access(name, R_OK) ? NULL : realpath(name, NULL);
	for (; path && *path; path = *colon ? colon + 1 : colon) {
		colon = strchrnul(path, ':');
		p = try_path(path, (size_t)(colon - path), name);
		if (p)
			return p;
	}
	for (i = 0; i < sizeof(lib_dirs) / sizeof(*lib_dirs); i++) {
		p = try_path(lib_dirs[i], strlen(lib_dirs[i]), name);
		if (p)
			return p;
	}
	return NULL;
}

static Elf_Data *versym_data(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_GNU_versym)
			return elf_getdata(scn, NULL);
	return NULL;
}

/*
 * A hidden version (memcpy@GLIBC_2.2.5 beside memcpy@@GLIBC_2.14) is an old compatibility
 * entry that new links never bind to: the default version is what programs call.
 */
static bool is_hidden_version(Elf_Data *versym, size_t i)
{
	GElf_Versym vs;

	return versym && gelf_getversym(versym, (int)i, &vs) && (vs & 0x8000);
}

/* Looks in one symbol table; 1 if found, 0 if not. */
static int find_in_table(Elf *elf, Elf_Scn *scn, const char *symbol, GElf_Sym *out)
{
	Elf_Data *data, *versym = NULL;
	GElf_Shdr sh;
	size_t i, n;

	if (!gelf_getshdr(scn, &sh) || !(data = elf_getdata(scn, NULL)) || !sh.sh_entsize)
		return 0;
	if (sh.sh_type == SHT_DYNSYM)
		versym = versym_data(elf);
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (!name || strcmp(name, symbol) || is_hidden_version(versym, i))
			continue;
		*out = sym;
		return 1;
	}
	return 0;
}

static int find_symbol(Elf *elf, const char *symbol, GElf_Sym *out)
{
	Elf_Scn *scn = NULL;
	int pass;

	/* .symtab first (it has local functions too), then .dynsym. */
	for (pass = 0; pass < 2; pass++) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;

			if (!gelf_getshdr(scn, &sh))
				continue;
			if (sh.sh_type == (pass ? SHT_DYNSYM : SHT_SYMTAB) &&
			    find_in_table(elf, scn, symbol, out))
				return 1;
		}
	}
	return 0;
}

/* File offset of @vaddr in an executable segment; @left gets the file bytes from there on. */
static int vaddr_to_offset(Elf *elf, uint64_t vaddr, uint64_t *off, uint64_t *left)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_memsz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			if (left)
				*left = vaddr - ph.p_vaddr < ph.p_filesz
						? ph.p_filesz - (vaddr - ph.p_vaddr)
						: 0;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * A uprobe writes an int3 over the first byte of an instruction; anywhere else it corrupts
 * every process running the file (SIGSEGV, or a different instruction). Decode the function
 * from its start and refuse an offset that is not an instruction boundary.
 */
static int check_boundary(Elf *elf, const char *path, const char *symbol, const GElf_Sym *sym,
			  uint64_t offset)
{
	uint64_t start, left, len;
	struct insn_bound b;
	size_t file_size;
	const char *raw = elf_rawfile(elf, &file_size);
	int r;

	if (!raw || vaddr_to_offset(elf, sym->st_value, &start, &left) || start > file_size) {
		p_err("%s: cannot read the code of %s to check offset 0x%llx", path, symbol,
		      (unsigned long long)offset);
		return -EINVAL;
	}
	/* No st_size (hand-written assembly): decode just past the offset. */
	len = sym->st_size ?: offset + 16;
	if (len > left)
		len = left;
	if (len > file_size - start)
		len = file_size - start;
	r = insn_bound_find((const uint8_t *)raw + start, len, offset, &b);
	if (!r)
		return 0;
	if (r == 1)
		p_err("offset 0x%llx is inside an instruction of %s (%s+0x%llx: %s, %llu bytes): a "
		      "uprobe there would corrupt the program; the nearest instruction boundaries "
		      "are %s+0x%llx and %s+0x%llx",
		      (unsigned long long)offset, symbol, symbol, (unsigned long long)b.before,
		      b.mnemonic, (unsigned long long)(b.after - b.before), symbol,
		      (unsigned long long)b.before, symbol, (unsigned long long)b.after);
	else if (r == -ERANGE)
		p_err("offset 0x%llx is past the code of %s in %s", (unsigned long long)offset,
		      symbol, path);
	else if (r == -EINVAL)
		p_err("cannot decode %s in %s from +0x%llx on, before offset 0x%llx: refusing a "
		      "uprobe at an offset that may not start an instruction (probe %s+0x%llx or "
		      "an earlier boundary)",
		      symbol, path, (unsigned long long)b.before, (unsigned long long)offset,
		      symbol, (unsigned long long)b.before);
	else
		p_err("cannot check offset 0x%llx of %s: %s", (unsigned long long)offset, symbol,
		      strerror(-r));
	return -EINVAL;
}

static int resolve_in_elf(Elf *elf, const char *path, const char *symbol, uint64_t offset,
			  struct elf_func *out)
{
	GElf_Sym sym;

	if (elf_kind(elf) != ELF_K_ELF) {
		p_err("%s is not an ELF file: give an executable or shared library", path);
		return -ENOEXEC;
	}
	if (!find_symbol(elf, symbol, &sym)) {
		p_err("no function '%s' in %s (searched .symtab and .dynsym; list them with "
		      "'nm -D %s')",
		      symbol, path, path);
		return -ENOENT;
	}
	if (GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC) {
		p_err("'%s' in %s is an IFUNC resolver, which runs once at load time: probe the "
		      "implementation it selects instead (see docs/record.md)",
		      symbol, path);
		return -EINVAL;
	}
	if (sym.st_size && offset >= sym.st_size) {
		p_err("offset 0x%llx is past the end of %s (size 0x%llx): give an offset below "
		      "0x%llx",
		      (unsigned long long)offset, symbol, (unsigned long long)sym.st_size,
		      (unsigned long long)sym.st_size);
		return -EINVAL;
	}
	out->vaddr = sym.st_value;
	out->size = sym.st_size;
	if (vaddr_to_offset(elf, sym.st_value + offset, &out->file_offset, NULL)) {
		p_err("%s: %s+0x%llx is not in an executable segment", path, symbol,
		      (unsigned long long)offset);
		return -EINVAL;
	}
	return offset ? check_boundary(elf, path, symbol, &sym, offset) : 0;
}

int elfsyms_resolve(const char *name, const char *symbol, uint64_t offset, struct elf_func *out)
{
	char *path = elfsyms_find_file(name);
	Elf *elf;
	int fd, err;

	*out = (struct elf_func){ 0 };
	if (!path) {
		p_err("cannot find '%s'%s", name,
		      strchr(name, '/') ? "" : " in $PATH or the system library folders");
		return -ENOENT;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		p_err("cannot open %s: %s", path, strerror(errno));
		free(path);
		return err;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		p_err("%s is not an ELF file: %s", path, elf_errmsg(-1));
		err = -ENOEXEC;
	} else {
		err = resolve_in_elf(elf, path, symbol, offset, out);
		elf_end(elf);
	}
	close(fd);
	if (err)
		free(path);
	else
		out->path = path;
	return err;
}

void elf_func_free(struct elf_func *f)
{
	free(f->path);
	f->path = NULL;
}
