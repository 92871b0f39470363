// SPDX-License-Identifier: GPL-2.0
/* ifunc.c: dlsym on an object already loaded here, mapped back to the file's own addresses */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include "ifunc.h"

struct loaded {
	dev_t dev;
	ino_t ino;
	const char *name; /* the loader's name for the object */
	uintptr_t base;	  /* its load bias: runtime address - link-time address */
	bool found;
};

static int match_object(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct loaded *l = ctx;
	struct stat st;

	(void)size;
	if (!info->dlpi_name || !*info->dlpi_name || stat(info->dlpi_name, &st) ||
	    st.st_dev != l->dev || st.st_ino != l->ino)
		return 0;
	l->name = info->dlpi_name;
	l->base = info->dlpi_addr;
	l->found = true;
	return 1;
}

int ifunc_resolve_here(const char *path, const char *symbol, uint64_t *impl_vaddr)
{
	struct loaded l = { .found = false };
	struct stat st;
	void *handle, *addr;

	if (stat(path, &st))
		return -errno;
	l.dev = st.st_dev;
	l.ino = st.st_ino;
	dl_iterate_phdr(match_object, &l);
	if (!l.found)
		return -ENOENT;
	/* RTLD_NOLOAD: a handle to what is loaded already; nothing new is mapped or run. */
	handle = dlopen(l.name, RTLD_LAZY | RTLD_NOLOAD);
	if (!handle)
		return -ENOENT;
	addr = dlsym(handle, symbol);
	dlclose(handle);
	if (!addr || (uintptr_t)addr < l.base)
		return -ESRCH;
	*impl_vaddr = (uint64_t)((uintptr_t)addr - l.base);
	return 0;
}
