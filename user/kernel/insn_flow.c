// SPDX-License-Identifier: GPL-2.0
/* insn_flow.c: decode a function with Capstone and answer "who last wrote this register?" */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <capstone/capstone.h>
#include "insn_flow.h"

static csh cs;
static bool cs_ready;

static int flow_cs(void)
{
	if (cs_ready)
		return 0;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return -ENOTSUP;
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	cs_ready = true;
	return 0;
}

/* Capstone register (any width) to our GPR number, or -1. */
static int gpr_of(unsigned r)
{
	switch (r) {
	case X86_REG_RAX:
	case X86_REG_EAX:
	case X86_REG_AX:
	case X86_REG_AL:
	case X86_REG_AH:
		return FLOW_RAX;
	case X86_REG_RBX:
	case X86_REG_EBX:
	case X86_REG_BX:
	case X86_REG_BL:
	case X86_REG_BH:
		return FLOW_RBX;
	case X86_REG_RCX:
	case X86_REG_ECX:
	case X86_REG_CX:
	case X86_REG_CL:
	case X86_REG_CH:
		return FLOW_RCX;
	case X86_REG_RDX:
	case X86_REG_EDX:
	case X86_REG_DX:
	case X86_REG_DL:
	case X86_REG_DH:
		return FLOW_RDX;
	case X86_REG_RSI:
	case X86_REG_ESI:
	case X86_REG_SI:
	case X86_REG_SIL:
		return FLOW_RSI;
	case X86_REG_RDI:
	case X86_REG_EDI:
	case X86_REG_DI:
	case X86_REG_DIL:
		return FLOW_RDI;
	case X86_REG_RBP:
	case X86_REG_EBP:
	case X86_REG_BP:
	case X86_REG_BPL:
		return FLOW_RBP;
	case X86_REG_RSP:
	case X86_REG_ESP:
	case X86_REG_SP:
	case X86_REG_SPL:
		return FLOW_RSP;
	case X86_REG_R8:
	case X86_REG_R8D:
	case X86_REG_R8W:
	case X86_REG_R8B:
		return FLOW_R8;
	case X86_REG_R9:
	case X86_REG_R9D:
	case X86_REG_R9W:
	case X86_REG_R9B:
		return FLOW_R9;
	case X86_REG_R10:
	case X86_REG_R10D:
	case X86_REG_R10W:
	case X86_REG_R10B:
		return FLOW_R10;
	case X86_REG_R11:
	case X86_REG_R11D:
	case X86_REG_R11W:
	case X86_REG_R11B:
		return FLOW_R11;
	case X86_REG_R12:
	case X86_REG_R12D:
	case X86_REG_R12W:
	case X86_REG_R12B:
		return FLOW_R12;
	case X86_REG_R13:
	case X86_REG_R13D:
	case X86_REG_R13W:
	case X86_REG_R13B:
		return FLOW_R13;
	case X86_REG_R14:
	case X86_REG_R14D:
	case X86_REG_R14W:
	case X86_REG_R14B:
		return FLOW_R14;
	case X86_REG_R15:
	case X86_REG_R15D:
	case X86_REG_R15W:
	case X86_REG_R15B:
		return FLOW_R15;
	default:
		return -1;
	}
}

static bool in_group(const cs_insn *in, uint8_t group)
{
	int i;

	for (i = 0; i < in->detail->groups_count; i++)
		if (in->detail->groups[i] == group)
			return true;
	return false;
}

static int string_width(unsigned id, bool *movs)
{
	*movs = true;
	switch (id) {
	case X86_INS_MOVSB:
		return 1;
	case X86_INS_MOVSW:
		return 2;
	case X86_INS_MOVSD:
		return 4;
	case X86_INS_MOVSQ:
		return 8;
	}
	*movs = false;
	switch (id) {
	case X86_INS_STOSB:
		return 1;
	case X86_INS_STOSW:
		return 2;
	case X86_INS_STOSD:
		return 4;
	case X86_INS_STOSQ:
		return 8;
	}
	return 0;
}

static bool has_rep(const cs_x86 *x)
{
	return x->prefix[0] == X86_PREFIX_REP;
}

/* Fills the shape fields the length rules use. */
static void classify(const cs_insn *in, struct flow_insn *fi)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o = x->operands;
	int w;

	fi->op = FLOW_OTHER;
	fi->dst = fi->src = -1;
	w = string_width(in->id, &fi->str_movs);
	if (w && has_rep(x)) {
		fi->op = FLOW_REP_STR;
		fi->str_width = (uint8_t)w;
		return;
	}
	if (x->op_count != 2 || o[0].type != X86_OP_REG)
		return;
	fi->dst = (int8_t)gpr_of(o[0].reg);
	fi->dst_bytes = o[0].size;
	if (fi->dst < 0 || fi->dst_bytes < 4)
		return;
	if (in->id == X86_INS_MOV && o[1].type == X86_OP_REG && o[1].size == o[0].size) {
		fi->src = (int8_t)gpr_of(o[1].reg);
		if (fi->src >= 0)
			fi->op = FLOW_MOV_RR;
	} else if (in->id == X86_INS_LEA && o[1].type == X86_OP_MEM &&
		   o[1].mem.index == X86_REG_INVALID && o[1].mem.segment == X86_REG_INVALID) {
		fi->src = (int8_t)gpr_of(o[1].mem.base);
		if (fi->src < 0)
			return;
		if (!o[1].mem.disp) {
			fi->op = FLOW_LEA_RR;
		} else if (fi->src == fi->dst) {
			fi->op = FLOW_ADD_IMM;
			fi->imm = o[1].mem.disp;
		}
	} else if ((in->id == X86_INS_ADD || in->id == X86_INS_SUB) && o[1].type == X86_OP_IMM) {
		fi->op = in->id == X86_INS_ADD ? FLOW_ADD_IMM : FLOW_SUB_IMM;
		fi->imm = o[1].imm;
	}
}

static uint16_t written_gprs(const cs_insn *in)
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0, i;
	uint16_t mask = 0;
	int g;

	if (cs_regs_access(cs, in, rd, &nrd, wr, &nwr) != CS_ERR_OK)
		return 0xffff; /* unknown: assume everything changes */
	for (i = 0; i < nwr; i++)
		if ((g = gpr_of(wr[i])) >= 0)
			mask |= (uint16_t)(1u << g);
	return mask;
}

int flow_decode(const uint8_t *code, size_t len, uint64_t start, struct flow_fn *out)
{
	const uint8_t *p = code;
	uint64_t addr = start;
	size_t left = len, cap = 64, i;
	cs_insn *in;
	int err;

	memset(out, 0, sizeof(*out));
	out->start = start;
	if ((err = flow_cs()))
		return err;
	in = cs_malloc(cs);
	out->insns = malloc(cap * sizeof(*out->insns));
	if (!in || !out->insns) {
		cs_free(in, 1);
		free(out->insns);
		out->insns = NULL;
		return -ENOMEM;
	}
	while (cs_disasm_iter(cs, &p, &left, &addr, in)) {
		struct flow_insn *fi;

		if (out->nr == cap) {
			void *n = realloc(out->insns, (cap *= 2) * sizeof(*out->insns));

			if (!n) {
				err = -ENOMEM;
				break;
			}
			out->insns = n;
		}
		fi = &out->insns[out->nr++];
		memset(fi, 0, sizeof(*fi));
		fi->addr = in->address;
		fi->size = in->size;
		fi->writes = written_gprs(in);
		fi->is_call = in_group(in, CS_GRP_CALL);
		fi->is_branch = in_group(in, CS_GRP_JUMP);
		if ((fi->is_call || fi->is_branch) && in->detail->x86.op_count == 1 &&
		    in->detail->x86.operands[0].type == X86_OP_IMM)
			fi->target = (uint64_t)in->detail->x86.operands[0].imm;
		if (fi->is_call) {
			fi->writes |= FLOW_CALLER_SAVED;
			out->has_call = true;
		}
		classify(in, fi);
		out->writes |= fi->writes;
	}
	cs_free(in, 1);
	/* Mark the landing points of branches that stay inside the function. */
	for (i = 0; i < out->nr; i++) {
		long t;

		if (!out->insns[i].target || out->insns[i].is_call)
			continue;
		t = flow_index(out, out->insns[i].target);
		if (t >= 0)
			out->insns[t].label = true;
	}
	return err;
}

void flow_free(struct flow_fn *f)
{
	free(f->insns);
	memset(f, 0, sizeof(*f));
}

long flow_index(const struct flow_fn *f, uint64_t addr)
{
	size_t lo = 0, hi = f->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->insns[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->nr && f->insns[lo].addr == addr ? (long)lo : -1;
}

bool flow_is_rep_string(const uint8_t *code, size_t len, uint64_t addr, int *width, bool *movs)
{
	cs_insn *in;
	bool rep = false;

	if (flow_cs() || cs_disasm(cs, code, len, addr, 1, &in) != 1)
		return false;
	*width = string_width(in[0].id, movs);
	rep = *width && has_rep(&in[0].detail->x86);
	cs_free(in, 1);
	return rep;
}

long flow_last_def(const struct flow_fn *f, size_t i, int reg)
{
	long j;

	/* A label at i itself is a join too: a branch may arrive there from anywhere. */
	for (j = (long)i; j >= 0; j--) {
		if (j < (long)i && (f->insns[j].writes & (1u << reg)))
			return j;
		if (f->insns[j].label)
			return FLOW_JOIN;
	}
	return FLOW_ENTRY;
}

bool flow_untouched(const struct flow_fn *f, long from, size_t to, int reg)
{
	size_t j;

	for (j = (size_t)(from + 1); j < to; j++)
		if (f->insns[j].writes & (1u << reg))
			return false;
	return true;
}

long flow_single_def(const struct flow_fn *f, int reg)
{
	long found = -1;
	size_t j;

	for (j = 0; j < f->nr; j++) {
		if (!(f->insns[j].writes & (1u << reg)))
			continue;
		if (found >= 0)
			return -1;
		found = (long)j;
	}
	return found;
}
