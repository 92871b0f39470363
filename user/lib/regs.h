/* SPDX-License-Identifier: GPL-2.0 */
/* regs.h: names of the argument and register sources a probe reads (enum cp_reg) */
#ifndef CP_REGS_H
#define CP_REGS_H

#include <stdbool.h>
#include <linux/types.h>
#include "cp_shared.h"

/*
 * "arg0".."arg5" (bpftrace's numbering: arg0 is the first argument), "rax".."r15" (also "ax",
 * "dx" ...), "none"; -1 if unknown.
 */
int reg_parse(const char *name);
const char *reg_name(int reg);
/* The x86-64 register that holds @reg at a function entry (argN -> rdi, rsi, ...). */
int reg_to_gpr(int reg);
/*
 * The one convention for what a length register says of its target: a length in the second
 * argument (arg1, as clear_user(dst, len)) is clear-like, with no source; else memcpy-like.
 */
bool reg_len_is_clear_like(const char *len_arg);

#endif
