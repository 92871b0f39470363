/* SPDX-License-Identifier: GPL-2.0 */
/* ksource.h: file:line, inline chain and stage label of kernel sites, from kernel DWARF */
#ifndef CP_KSOURCE_H
#define CP_KSOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include "profile.h"

/* True for a site in the kernel: target "vmlinux" or a module name, probed or sampled there. */
bool ksource_is_kernel_site(const struct profile_site *s);
/*
 * Gives every kernel site without a source position its file:line and inline chain, and the
 * label of the first preset "label" rule it matches (preset.h). The debug file of each target
 * is found with kdebuginfo_find() for the site's kernel release and build id, and @dirs
 * (--debuginfo). Says once per target where its lines came from, or why there are none.
 * Returns how many sites were given a source position.
 */
size_t ksource_annotate(struct profile *p, const char *const *dirs, size_t nr_dirs);

#endif
