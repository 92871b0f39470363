// SPDX-License-Identifier: GPL-2.0
/* kimage.c: kernel text at a runtime address, from /proc/kcore, a vmlinux or a vmlinuz */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "lib/decompress.h"
#include "kimage.h"
#include "lib/reason.h"
#include "lib/log.h"

struct kimage_region {
	uint64_t addr; /* link address (file) or runtime address (kcore) */
	uint64_t size;
	uint64_t offset; /* file offset (kcore) or offset into image (ELF) */
};

struct kimage {
	const char *source;
	char *path;
	int fd;	   /* kcore */
	bool live; /* kcore or a test buffer: alternatives are patched */
	void *map; /* mmap'ed vmlinux or the decompressed vmlinuz payload */
	size_t map_len;
	bool map_is_heap;
	struct kimage_region *regions;
	size_t nr_regions;
	int64_t slide;
};

static int add_region(struct kimage *ki, uint64_t addr, uint64_t size, uint64_t offset)
{
	struct kimage_region *r = realloc(ki->regions, (ki->nr_regions + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	ki->regions = r;
	r[ki->nr_regions++] = (struct kimage_region){ addr, size, offset };
	return 0;
}

/* /proc/kcore opened by kimage_hold_kcore(), or -1. */
static int kcore_held = -1;

int kimage_hold_kcore(void)
{
	if (kcore_held >= 0)
		return 0;
	kcore_held = open("/proc/kcore", O_RDONLY | O_CLOEXEC);
	return kcore_held < 0 ? -errno : 0;
}

/* /proc/kcore is an ELF core file: one PT_LOAD per mapped kernel region, at runtime addresses. */
static int open_kcore(struct kimage *ki, char **why)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd, i, err;

	fd = kcore_held >= 0 ? fcntl(kcore_held, F_DUPFD_CLOEXEC, 0)
			     : open("/proc/kcore", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		reason_add(why, "/proc/kcore: %s", strerror(errno));
		return err;
	}
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
		reason_add(why, "/proc/kcore: not a 64-bit ELF core");
		close(fd);
		return -ENOEXEC;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph),
			  (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) != sizeof(ph))
			break;
		if (ph.p_type == PT_LOAD && ph.p_vaddr)
			add_region(ki, ph.p_vaddr, ph.p_memsz, ph.p_offset);
	}
	if (!ki->nr_regions) {
		reason_add(why, "/proc/kcore: no PT_LOAD regions");
		close(fd);
		return -ENOEXEC;
	}
	ki->fd = fd;
	ki->live = true;
	ki->source = "kcore";
	ki->path = strdup("/proc/kcore");
	return 0;
}

/* Link address of _text: the symbol if the ELF has one, else the .text section's address. */
static uint64_t elf_text_start(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;
	size_t shstrndx, i, n;
	uint64_t text = 0;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".text"))
			text = sh.sh_addr;
		if (sh.sh_type != SHT_SYMTAB || !(data = elf_getdata(scn, NULL)))
			continue;
		n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (i = 0; i < n; i++) {
			if (!gelf_getsym(data, (int)i, &sym))
				break;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name && !strcmp(name, "_text"))
				return sym.st_value;
		}
	}
	return text;
}

/* Maps the allocated sections of the ELF image in ki->map, and computes the slide. */
static int index_elf(struct kimage *ki, const struct ksyms *ks, char **why)
{
	Elf *elf = elf_memory(ki->map, ki->map_len);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t link_text, run_text;
	int err = 0;

	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		reason_add(why, "%s: not an ELF file: %s", ki->path, elf_errmsg(-1));
		if (elf)
			elf_end(elf);
		return -ENOEXEC;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type != SHT_PROGBITS || !sh.sh_addr)
			continue;
		if (sh.sh_offset + sh.sh_size > ki->map_len)
			continue;
		add_region(ki, sh.sh_addr, sh.sh_size, sh.sh_offset);
	}
	link_text = elf_text_start(elf);
	elf_end(elf);
	run_text = ksyms_addr(ks, "_text") ?: ksyms_addr(ks, "_stext");
	if (!ki->nr_regions || !link_text) {
		reason_add(why, "%s: no .text section", ki->path);
		err = -ENOEXEC;
	} else if (!run_text) {
		reason_add(why,
			   "%s: kallsyms has no _text/_stext address to compute the KASLR slide",
			   ki->path);
		err = -ENOENT;
	} else {
		ki->slide = (int64_t)(run_text - link_text);
		p_debug("%s: _text at 0x%llx in the file, 0x%llx running: KASLR slide %+lld "
			"(0x%llx)",
			ki->path, (unsigned long long)link_text, (unsigned long long)run_text,
			(long long)ki->slide, (unsigned long long)ki->slide);
	}
	return err;
}

/* An ELF vmlinux is mapped as is; anything else is taken as a bzImage and decompressed. */
static int open_file(struct kimage *ki, const char *path, const struct ksyms *ks, char **why)
{
	enum compression c;
	struct stat st;
	void *map, *elf;
	size_t elf_len;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		reason_add(why, "%s: %s", path, strerror(errno));
		return err;
	}
	if (fstat(fd, &st) || st.st_size < 64) {
		reason_add(why, "%s: empty or unreadable", path);
		close(fd);
		return -ENOEXEC;
	}
	/* Writable copy-on-write pages: libelf may convert data in place. */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		err = -errno;
		reason_add(why, "%s: mmap: %s", path, strerror(errno));
		return err;
	}
	ki->path = strdup(path);
	if (!memcmp(map, ELFMAG, SELFMAG)) {
		ki->map = map;
		ki->map_len = (size_t)st.st_size;
		ki->source = "vmlinux";
	} else {
		err = decompress_vmlinuz(map, (size_t)st.st_size, &elf, &elf_len, &c);
		munmap(map, (size_t)st.st_size);
		if (err) {
			reason_add(why,
				   "%s: neither ELF nor a vmlinuz with a gzip/xz/zstd ELF payload",
				   path);
			return err;
		}
		p_debug("%s: %s payload decompressed to %zu bytes", path, decompress_name(c),
			elf_len);
		ki->map = elf;
		ki->map_len = elf_len;
		ki->map_is_heap = true;
		ki->source = "vmlinuz";
	}
	return index_elf(ki, ks, why);
}

static void release_source(struct kimage *ki)
{
	if (ki->fd >= 0)
		close(ki->fd);
	if (ki->map && ki->map_is_heap)
		free(ki->map);
	else if (ki->map)
		munmap(ki->map, ki->map_len);
	free(ki->path);
	free(ki->regions);
	*ki = (struct kimage){ .fd = -1 };
}

struct kimage *kimage_open(const struct kimage_opts *o, const struct ksyms *ks, char **why)
{
	struct kimage *ki = calloc(1, sizeof(*ki));
	char debug[512], boot[512];
	const char *release = o->release;
	struct utsname u;

	*why = NULL;
	if (!ki)
		return NULL;
	ki->fd = -1;
	elf_version(EV_CURRENT);
	if (!release)
		release = uname(&u) ? "" : u.release;
	snprintf(debug, sizeof(debug), "/usr/lib/debug/boot/vmlinux-%s", release);
	snprintf(boot, sizeof(boot), "/boot/vmlinuz-%s", release);
	if (o->no_kcore)
		reason_add(why,
			   "/proc/kcore: not used (kallsyms is not this kernel's, or --no-kcore)");
	else if (!open_kcore(ki, why))
		goto found;
	release_source(ki);
	if (o->live_only) {
		free(ki);
		return NULL;
	}
	if (o->vmlinux) {
		if (!open_file(ki, o->vmlinux, ks, why))
			goto found;
		release_source(ki);
	}
	if (!open_file(ki, debug, ks, why))
		goto found;
	release_source(ki);
	if (!open_file(ki, boot, ks, why))
		goto found;
	release_source(ki);
	free(ki);
	return NULL;
found:
	p_debug("kernel text from %s (%s)", ki->path, ki->source);
	free(*why);
	*why = NULL;
	return ki;
}

struct kimage *kimage_open_buffer(uint64_t addr, const void *buf, size_t len)
{
	struct kimage *ki = calloc(1, sizeof(*ki));

	if (ki)
		ki->fd = -1;
	if (ki)
		ki->map_is_heap = true;
	if (!ki || !(ki->map = malloc(len ? len : 1)) || add_region(ki, addr, len, 0)) {
		kimage_close(ki);
		return NULL;
	}
	memcpy(ki->map, buf, len);
	ki->map_len = len;
	ki->map_is_heap = true;
	ki->live = true;
	ki->source = "buffer";
	ki->path = strdup("(buffer)");
	return ki;
}

void kimage_close(struct kimage *ki)
{
	if (!ki)
		return;
	release_source(ki);
	free(ki);
}

int kimage_read(struct kimage *ki, uint64_t addr, void *buf, size_t len)
{
	uint64_t at = addr - (uint64_t)ki->slide;
	size_t i;

	for (i = 0; i < ki->nr_regions; i++) {
		const struct kimage_region *r = &ki->regions[i];

		if (at < r->addr || at - r->addr >= r->size || len > r->size - (at - r->addr))
			continue;
		if (ki->fd < 0) {
			memcpy(buf, (const char *)ki->map + r->offset + (at - r->addr), len);
			return 0;
		}
		if (pread(ki->fd, buf, len, (off_t)(r->offset + (at - r->addr))) == (ssize_t)len)
			return 0;
		return errno ? -errno : -EFAULT;
	}
	return -EFAULT;
}

const char *kimage_source(const struct kimage *ki)
{
	return ki->source;
}

const char *kimage_path(const struct kimage *ki)
{
	return ki->path;
}

bool kimage_live(const struct kimage *ki)
{
	return ki->live;
}

int64_t kimage_slide(const struct kimage *ki)
{
	return ki->slide;
}
