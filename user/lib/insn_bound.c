// SPDX-License-Identifier: GPL-2.0
/* insn_bound.c: decode from a function's start to tell whether an offset starts an instruction */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <capstone/capstone.h>
#include "insn_bound.h"

int insn_bound_find(const uint8_t *code, size_t len, uint64_t offset, struct insn_bound *b)
{
	const uint8_t *p = code;
	size_t left = len;
	uint64_t addr = 0;
	cs_insn *insn;
	csh cs;
	int ret = -EINVAL;

	memset(b, 0, sizeof(*b));
	if (offset >= len)
		return -ERANGE;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return -ENOTSUP;
	insn = cs_malloc(cs);
	if (!insn) {
		cs_close(&cs);
		return -ENOMEM;
	}
	while (addr <= offset) {
		b->before = addr;
		if (!cs_disasm_iter(cs, &p, &left, &addr, insn))
			break; /* undecodable bytes before @offset: -EINVAL */
		b->after = addr;
		snprintf(b->mnemonic, sizeof(b->mnemonic), "%.31s%s%.120s", insn->mnemonic,
			 insn->op_str[0] ? " " : "", insn->op_str);
		if (b->before == offset) {
			ret = 0;
			break;
		}
		if (offset < addr) {
			ret = 1;
			break;
		}
	}
	cs_free(insn, 1);
	cs_close(&cs);
	return ret;
}
