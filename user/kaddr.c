// SPDX-License-Identifier: GPL-2.0
/* kaddr.c: kernel function address lookup through /proc/kallsyms */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kaddr.h"
#include "log.h"

int kaddr_resolve(const char *module, const char *func, uint64_t *addr)
{
	char line[512], name[256], mod[128], type;
	unsigned long long a;
	FILE *f = fopen("/proc/kallsyms", "r");
	int found = 0;

	if (!f) {
		p_err("cannot read /proc/kallsyms: %s", strerror(errno));
		return -errno;
	}
	while (!found && fgets(line, sizeof(line), f)) {
		mod[0] = 0;
		if (sscanf(line, "%llx %c %255s [%127[^]]]", &a, &type, name, mod) < 3)
			continue;
		if (strcmp(name, func) || (module && strcmp(mod, module)))
			continue;
		if (!a) {
			fclose(f);
			p_err("/proc/kallsyms shows zero addresses: run as root (kernel.kptr_restrict)");
			return -EPERM;
		}
		*addr = a;
		found = 1;
	}
	fclose(f);
	if (!found) {
		p_err("no kernel function '%s'%s%s in /proc/kallsyms%s", func, module ? " in module " : "",
		      module ?: "", module ? " (is the module loaded?)" : "");
		return -ENOENT;
	}
	return 0;
}
