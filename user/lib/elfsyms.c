// SPDX-License-Identifier: GPL-2.0
/* elfsyms.c: a uprobe target in a user-space ELF file: symbol or file offset -> checked offset */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "eh_frame_hdr.h"
#include "elf_symbols.h"
#include "elfsyms.h"
#include "ifunc.h"
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

/* The executable PT_LOAD segment holding @vaddr (@by_vaddr) or file offset @off (!@by_vaddr). */
static bool exec_segment(Elf *elf, uint64_t where, bool by_vaddr, GElf_Phdr *out)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t lo;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		lo = by_vaddr ? ph.p_vaddr : ph.p_offset;
		if (where >= lo && where - lo < (by_vaddr ? ph.p_memsz : ph.p_filesz)) {
			*out = ph;
			return true;
		}
	}
	return false;
}

/* File offset of @vaddr in an executable segment; @left gets the file bytes from there on. */
static int vaddr_to_offset(Elf *elf, uint64_t vaddr, uint64_t *off, uint64_t *left)
{
	GElf_Phdr ph;

	if (!exec_segment(elf, vaddr, true, &ph))
		return -EINVAL;
	*off = vaddr - ph.p_vaddr + ph.p_offset;
	if (left)
		*left = vaddr - ph.p_vaddr < ph.p_filesz ? ph.p_filesz - (vaddr - ph.p_vaddr) : 0;
	return 0;
}

/* "name+0x10" (or the bare address without a name); raw: "0x1146 (name+0x10)" or "0x1146". */
struct place {
	const char *name;
	uint64_t start, file_start;
	bool raw;
};

static const char *at(char *buf, size_t len, const struct place *p, uint64_t delta)
{
	char rel[180];

	if (p->name)
		snprintf(rel, sizeof(rel), "%s+0x%llx", p->name, (unsigned long long)delta);
	else
		snprintf(rel, sizeof(rel), "address 0x%llx",
			 (unsigned long long)(p->start + delta));
	if (p->raw && !p->name)
		snprintf(buf, len, "0x%llx", (unsigned long long)(p->file_start + delta));
	else if (p->raw)
		snprintf(buf, len, "0x%llx (%s)", (unsigned long long)(p->file_start + delta), rel);
	else
		snprintf(buf, len, "%s", rel);
	return buf;
}

/*
 * A uprobe writes an int3 over the first byte of an instruction; anywhere else it corrupts
 * every process running the file (SIGSEGV, or a different instruction). Decode the function
 * from its start (@start, @len bytes at most; @name may be NULL) and refuse an @offset into
 * it that is not an instruction boundary. @raw: the target was given as a file offset.
 */
static int check_boundary(Elf *elf, const char *path, const char *name, uint64_t start,
			  uint64_t len, uint64_t offset, bool raw)
{
	struct place p = { .name = name, .start = start, .raw = raw };
	char fn[160], a[240], b1[240], b2[240];
	struct insn_bound b;
	size_t file_size;
	const char *raw_bytes = elf_rawfile(elf, &file_size);
	uint64_t left;
	int r;

	if (name)
		snprintf(fn, sizeof(fn), "%s", name);
	else
		snprintf(fn, sizeof(fn), "the function at address 0x%llx",
			 (unsigned long long)start);
	if (!raw_bytes || vaddr_to_offset(elf, start, &p.file_start, &left) ||
	    p.file_start > file_size) {
		p_err("%s: cannot read the code of %s to check offset 0x%llx", path, fn,
		      (unsigned long long)offset);
		return -EINVAL;
	}
	if (raw)
		snprintf(a, sizeof(a), "file offset %s", at(b1, sizeof(b1), &p, offset));
	else
		snprintf(a, sizeof(a), "offset 0x%llx", (unsigned long long)offset);
	if (len > left)
		len = left;
	if (len > file_size - p.file_start)
		len = file_size - p.file_start;
	r = insn_bound_find((const uint8_t *)raw_bytes + p.file_start, len, offset, &b);
	if (!r)
		return 0;
	if (r == 1)
		p_err("%s is inside an instruction of %s (%s: %s, %llu bytes): a uprobe there "
		      "would "
		      "corrupt the program; the nearest instruction boundaries are %s and %s",
		      a, fn, at(b1, sizeof(b1), &p, b.before), b.mnemonic,
		      (unsigned long long)(b.after - b.before), b1,
		      at(b2, sizeof(b2), &p, b.after));
	else if (r == -ERANGE)
		p_err("%s is past the code of %s in %s", a, fn, path);
	else if (r == -EINVAL)
		p_err("cannot decode %s in %s from %s on, before %s: refusing a uprobe at an "
		      "offset "
		      "that may not start an instruction (probe %s or an earlier boundary)",
		      fn, path, at(b1, sizeof(b1), &p, b.before), a, b1);
	else
		p_err("cannot check %s of %s: %s", a, fn, strerror(-r));
	return -EINVAL;
}

/* Where the IFUNC message sends readers (docs/user-targets.md must have this heading). */
#define IFUNC_DOC "docs/user-targets.md#ifuncs"

/* Refuses IFUNC @symbol, naming the implementation its resolver picks here when it can. */
static int refuse_ifunc(struct elf_symbols *syms, const char *path, const char *symbol)
{
	const char *tunables = getenv("GLIBC_TUNABLES"), *names[8], *pick;
	char others[512] = "", env_note[300] = "", key[160];
	uint64_t impl, foff;
	size_t n, i;
	int r = ifunc_resolve_here(path, symbol, &impl);

	if (r) {
		p_err("'%s' in %s is an IFUNC: a resolver that runs once, when a program is "
		      "loaded, "
		      "and picks an implementation for the CPU. copyprof runs resolvers only of "
		      "files its own process has loaded (%s), and %s is not one: probe the "
		      "implementation a running program uses instead (%s)",
		      symbol, path, "its libc.so.6; a static copyprof loads none", path, IFUNC_DOC);
		return -EINVAL;
	}
	if (tunables && *tunables)
		snprintf(env_note, sizeof(env_note),
			 " (copyprof runs with GLIBC_TUNABLES=%s; a program started with other "
			 "tunables may get another)",
			 tunables);
	n = elf_symbols_at(syms, impl, names, sizeof(names) / sizeof(*names));
	if (!n) {
		if (vaddr_to_offset(syms->elf, impl, &foff, NULL))
			foff = impl;
		p_err("'%s' in %s is an IFUNC: a resolver that runs once, when a program is "
		      "loaded; "
		      "on this CPU it picks the code at 0x%llx%s, which has no name without %s's "
		      "debug file (%s). Probe it as --uprobe %s:0x%llx, or install the debug file "
		      "(%s)",
		      symbol, path, (unsigned long long)impl, env_note, path,
		      syms->debug_why ?: "not found", path, (unsigned long long)foff, IFUNC_DOC);
		return -EINVAL;
	}
	/* Of aliases (__memmove_x and __memcpy_x), the one named after what was asked for. */
	snprintf(key, sizeof(key), "_%s_", symbol);
	pick = names[0];
	for (i = 0; i < n; i++)
		if (strstr(names[i], key)) {
			pick = names[i];
			break;
		}
	for (i = 0; i < n; i++)
		if (names[i] != pick)
			snprintf(others + strlen(others), sizeof(others) - strlen(others), "%s%s",
				 others[0] ? ", " : "", names[i]);
	p_err("'%s' in %s is an IFUNC: a resolver that runs once, when a program is loaded, and "
	      "picks an implementation for the CPU; on this CPU it picks %s%s%s%s%s. Probe that: "
	      "copyprof record --uprobe %s:%s (%s)",
	      symbol, path, pick, others[0] ? " (the same code as " : "", others,
	      others[0] ? ": every caller of either is counted)" : "", env_note, path, pick,
	      IFUNC_DOC);
	return -EINVAL;
}

static int resolve_by_name(Elf *elf, const char *path, const char *symbol, uint64_t offset,
			   struct elf_func *out)
{
	struct elf_symbols syms;
	struct elf_symbol f;
	char searched[1024];
	int err = 0;

	elf_symbols_init(&syms, path, elf);
	if (!elf_symbols_by_name(&syms, symbol, &f)) {
		elf_symbols_searched(&syms, searched, sizeof(searched));
		p_err("no function '%s' in %s (searched %s; list them with 'nm -D %s')", symbol,
		      path, searched, path);
		err = -ENOENT;
	} else if (GELF_ST_TYPE(f.sym.st_info) == STT_GNU_IFUNC) {
		err = refuse_ifunc(&syms, path, symbol);
	} else if (f.sym.st_size && offset >= f.sym.st_size) {
		p_err("offset 0x%llx is past the end of %s (size 0x%llx): give an offset below "
		      "0x%llx",
		      (unsigned long long)offset, symbol, (unsigned long long)f.sym.st_size,
		      (unsigned long long)f.sym.st_size);
		err = -EINVAL;
	} else if (vaddr_to_offset(elf, f.sym.st_value + offset, &out->file_offset, NULL)) {
		p_err("%s: %s+0x%llx is not in an executable segment", path, symbol,
		      (unsigned long long)offset);
		err = -EINVAL;
	} else {
		out->vaddr = f.sym.st_value;
		out->size = f.sym.st_size;
		out->offset = offset;
		/* No st_size (hand-written assembly): decode just past the offset. */
		if (offset)
			err = check_boundary(elf, path, symbol, f.sym.st_value,
					     f.sym.st_size ?: offset + 16, offset, false);
		if (!err && !(out->symbol = strdup(symbol)))
			err = -ENOMEM;
	}
	elf_symbols_release(&syms);
	return err;
}

/* FILE:0xOFFSET: the function holding it comes from the symbols, else the unwind table. */
static int resolve_by_offset(Elf *elf, const char *path, uint64_t file_offset, struct elf_func *out)
{
	uint64_t vaddr, start, next;
	struct elf_symbols syms;
	struct elf_symbol f;
	GElf_Phdr ph;
	int err;

	if (!exec_segment(elf, file_offset, false, &ph)) {
		if (exec_segment(elf, file_offset, true, &ph))
			p_err("0x%llx is not a file offset in the code of %s, but the address "
			      "0x%llx is (objdump shows addresses): give its file offset, "
			      "%s:0x%llx",
			      (unsigned long long)file_offset, path,
			      (unsigned long long)file_offset, path,
			      (unsigned long long)(file_offset - ph.p_vaddr + ph.p_offset));
		else
			p_err("file offset 0x%llx is not in an executable segment of %s ('readelf "
			      "-lW %s' lists them)",
			      (unsigned long long)file_offset, path, path);
		return -EINVAL;
	}
	vaddr = file_offset - ph.p_offset + ph.p_vaddr;
	out->file_offset = file_offset;
	elf_symbols_init(&syms, path, elf);
	if (elf_symbols_covering(&syms, vaddr, &f)) {
		out->vaddr = f.sym.st_value;
		out->size = f.sym.st_size;
		out->offset = vaddr - f.sym.st_value;
		out->symbol = strdup(f.name);
		err = out->symbol ? check_boundary(elf, path, f.name, f.sym.st_value, f.sym.st_size,
						   out->offset, true)
				  : -ENOMEM;
	} else if (!eh_frame_hdr_func_start(elf, vaddr, &start, &next)) {
		out->vaddr = start;
		out->offset = vaddr - start;
		err = check_boundary(elf, path, NULL, start,
				     next == UINT64_MAX ? out->offset + 16 : next - start,
				     out->offset, true);
	} else {
		char searched[1024];

		elf_symbols_searched(&syms, searched, sizeof(searched));
		p_err("file offset 0x%llx of %s is in no function copyprof knows (searched %s and "
		      "the unwind table): it cannot check that a uprobe there starts an "
		      "instruction",
		      (unsigned long long)file_offset, path, searched);
		err = -EINVAL;
	}
	elf_symbols_release(&syms);
	return err;
}

static int resolve(const char *name, const char *symbol, uint64_t offset, bool by_offset,
		   struct elf_func *out)
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
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		p_err("%s is not an ELF file: give an executable or shared library", path);
		err = -ENOEXEC;
	} else {
		err = by_offset ? resolve_by_offset(elf, path, offset, out)
				: resolve_by_name(elf, path, symbol, offset, out);
	}
	elf_end(elf);
	close(fd);
	out->path = path;
	if (err)
		elf_func_free(out);
	return err;
}

int elfsyms_resolve(const char *name, const char *symbol, uint64_t offset, struct elf_func *out)
{
	return resolve(name, symbol, offset, false, out);
}

int elfsyms_resolve_file_offset(const char *name, uint64_t file_offset, struct elf_func *out)
{
	return resolve(name, NULL, file_offset, true, out);
}

void elf_func_free(struct elf_func *f)
{
	free(f->path);
	free(f->symbol);
	f->path = f->symbol = NULL;
}
