/* SPDX-License-Identifier: GPL-2.0 */
/* regs.h: names of the argument and register sources a probe reads (enum cp_reg) */
#ifndef CP_REGS_H
#define CP_REGS_H

#include <linux/types.h>
#include "cp_shared.h"

/* "arg1".."arg6", "rax".."r15" (also "ax", "dx" ...), "none"; -1 if unknown. */
int reg_parse(const char *name);
const char *reg_name(int reg);
/* The x86-64 register that holds @reg at a function entry (argN -> rdi, rsi, ...). */
int reg_to_gpr(int reg);

#endif
