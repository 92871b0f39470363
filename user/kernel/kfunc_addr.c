// SPDX-License-Identifier: GPL-2.0
/* kfunc_addr.c: a kernel function's address by name, through ksyms, with the reasons it may fail */
#include <errno.h>
#include "kfunc_addr.h"
#include "ksyms.h"
#include "lib/log.h"

int kfunc_addr_resolve(const char *module, const char *func, uint64_t *addr)
{
	struct ksyms *ks = ksyms_load(NULL);
	const struct ksym *sym;
	int err = 0;

	if (!ks)
		return -ENOENT;
	if (ks->restricted) {
		p_err("/proc/kallsyms shows zero addresses: run as root (kernel.kptr_restrict)");
		err = -EPERM;
		goto out;
	}
	/* Without a module, any loaded one will do: --hwbp read_zero or --hwbp my_mod_func. */
	sym = ksyms_find(ks, func, module ?: "*");
	if (!sym) {
		p_err("no kernel function '%s'%s%s in /proc/kallsyms%s", func,
		      module ? " in module " : "", module ?: "",
		      module ? " (is the module loaded?)" : "");
		err = -ENOENT;
		goto out;
	}
	*addr = sym->addr;
out:
	ksyms_free(ks);
	return err;
}
