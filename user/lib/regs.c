// SPDX-License-Identifier: GPL-2.0
/* regs.c: the register name table shared by target specs, profiles and the planner */
#include <string.h>
#include "regs.h"

static const char *const names[CP_REG_COUNT] = {
	[CP_REG_NONE] = "none", [CP_REG_ARG0] = "arg0", [CP_REG_ARG1] = "arg1",
	[CP_REG_ARG2] = "arg2", [CP_REG_ARG3] = "arg3", [CP_REG_ARG4] = "arg4",
	[CP_REG_ARG5] = "arg5", [CP_REG_RAX] = "rax",	[CP_REG_RBX] = "rbx",
	[CP_REG_RCX] = "rcx",	[CP_REG_RDX] = "rdx",	[CP_REG_RSI] = "rsi",
	[CP_REG_RDI] = "rdi",	[CP_REG_RBP] = "rbp",	[CP_REG_RSP] = "rsp",
	[CP_REG_R8] = "r8",	[CP_REG_R9] = "r9",	[CP_REG_R10] = "r10",
	[CP_REG_R11] = "r11",	[CP_REG_R12] = "r12",	[CP_REG_R13] = "r13",
	[CP_REG_R14] = "r14",	[CP_REG_R15] = "r15",
};

int reg_parse(const char *name)
{
	int i;

	for (i = 0; i < CP_REG_COUNT; i++) {
		/* pt_regs spells the legacy registers without the r: accept "dx" for "rdx". */
		if (!strcmp(name, names[i]) ||
		    (names[i][0] == 'r' && names[i][1] > '9' && !strcmp(name, names[i] + 1)))
			return i;
	}
	return -1;
}

const char *reg_name(int reg)
{
	return reg >= 0 && reg < CP_REG_COUNT ? names[reg] : "?";
}

int reg_to_gpr(int reg)
{
	static const int args[] = { CP_REG_RDI, CP_REG_RSI, CP_REG_RDX,
				    CP_REG_RCX, CP_REG_R8,  CP_REG_R9 };

	if (reg >= CP_REG_ARG0 && reg <= CP_REG_ARG5)
		return args[reg - CP_REG_ARG0];
	return reg;
}

bool reg_len_is_clear_like(const char *len_arg)
{
	return len_arg && !strcmp(len_arg, names[CP_REG_ARG1]);
}
