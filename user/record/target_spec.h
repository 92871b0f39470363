/* SPDX-License-Identifier: GPL-2.0 */
/* target_spec.h: parse "PATH:SYMBOL[+OFF][,len=REG][,dst=REG][,src=REG]" */
#ifndef CP_TARGET_SPEC_H
#define CP_TARGET_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct target_spec {
	char *path; /* user: the ELF file; kernel: the module, or NULL for vmlinux */
	char *symbol;
	uint64_t offset;
	bool at_file_offset;  /* the raw form PATH:0xOFFSET: symbol is "0xOFFSET", offset 0 */
	uint64_t file_offset; /* with at_file_offset: the offset into the file */
	int len_reg;
	int dst_reg;
	int src_reg;
};

/*
 * PATH:0xOFFSET (a number where SYMBOL would be, no +OFF) is the raw form: a file offset,
 * as in uprobe_events. Arguments count from arg0, as in bpftrace. Defaults are memcpy-like:
 * len=arg2, dst=arg0, src=arg1. With len=arg1 (clear_user-like) the source defaults to none.
 * Returns 0, or -EINVAL with the reason in @err.
 */
int target_spec_parse(const char *text, struct target_spec *out, char *err, size_t errlen);
/* The kernel form: a function of vmlinux or of MODULE; same options and defaults. */
int target_spec_parse_kernel(const char *text, struct target_spec *out, char *err, size_t errlen);
void target_spec_free(struct target_spec *t);

#endif
