/* SPDX-License-Identifier: GPL-2.0 */
/* insn_flow.h: a function's x86-64 instructions (Capstone) with the registers each one writes */
#ifndef CP_INSN_FLOW_H
#define CP_INSN_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * General-purpose registers are numbered in enum cp_reg order from rax (0) to r15 (15):
 * rax rbx rcx rdx rsi rdi rbp rsp r8 .. r15. A mask has bit i set for register i.
 */
enum flow_gpr {
	FLOW_RAX,
	FLOW_RBX,
	FLOW_RCX,
	FLOW_RDX,
	FLOW_RSI,
	FLOW_RDI,
	FLOW_RBP,
	FLOW_RSP,
	FLOW_R8,
	FLOW_R9,
	FLOW_R10,
	FLOW_R11,
	FLOW_R12,
	FLOW_R13,
	FLOW_R14,
	FLOW_R15,
	FLOW_NR_GPRS,
};
#define FLOW_CALLER_SAVED                                                                          \
	((1u << FLOW_RAX) | (1u << FLOW_RCX) | (1u << FLOW_RDX) | (1u << FLOW_RSI) |               \
	 (1u << FLOW_RDI) | (1u << FLOW_R8) | (1u << FLOW_R9) | (1u << FLOW_R10) |                 \
	 (1u << FLOW_R11))

/* The few instruction shapes the length rules look at; everything else is FLOW_OTHER. */
enum flow_op {
	FLOW_OTHER,
	FLOW_MOV_RR,  /* mov dst, src (registers) */
	FLOW_LEA_RR,  /* lea dst, [src] (no index, no displacement) */
	FLOW_ADD_IMM, /* add dst, imm; lea dst, [dst + imm] */
	FLOW_SUB_IMM, /* sub dst, imm */
	FLOW_REP_STR, /* rep movs / rep stos */
};

struct flow_insn {
	uint64_t addr;
	uint64_t target; /* direct branch or call target, else 0 */
	int64_t imm;	 /* FLOW_ADD_IMM / FLOW_SUB_IMM amount */
	uint16_t size;
	uint16_t writes;   /* GPR mask; a call writes every caller-saved register */
	uint8_t op;	   /* enum flow_op */
	int8_t dst, src;   /* GPRs of the shapes above, or -1 */
	uint8_t dst_bytes; /* width of dst: 4 zero-extends, so the value is masked */
	uint8_t str_width; /* FLOW_REP_STR element size: 1, 2, 4 or 8 */
	bool str_movs;	   /* FLOW_REP_STR: movs (copy) rather than stos (fill) */
	bool label;	   /* a branch inside the function lands here: paths join */
	bool is_call, is_branch;
};

struct flow_fn {
	uint64_t start;
	struct flow_insn *insns;
	size_t nr;
	uint16_t writes; /* union over the function */
	bool has_call;
};

/* Decodes @len bytes at runtime address @start, stopping at the first undecodable byte. */
int flow_decode(const uint8_t *code, size_t len, uint64_t start, struct flow_fn *out);
void flow_free(struct flow_fn *f);
/* Index of the instruction that starts exactly at @addr, or -1. */
long flow_index(const struct flow_fn *f, uint64_t addr);
/* Decodes the single instruction in @code (for a sample's bytes); true for a rep movs/stos. */
bool flow_is_rep_string(const uint8_t *code, size_t len, uint64_t addr, int *width, bool *movs);

#define FLOW_ENTRY (-1L) /* no write since the function entry, on a straight line */
#define FLOW_JOIN (-2L)	 /* a label lies between: another path may have written it */
/*
 * The instruction before @i that last wrote @reg on the straight-line path to @i: its index,
 * FLOW_ENTRY or FLOW_JOIN.
 */
long flow_last_def(const struct flow_fn *f, size_t i, int reg);
/* True if no instruction with index in (from, to) writes @reg. */
bool flow_untouched(const struct flow_fn *f, long from, size_t to, int reg);
/* The one instruction of the function writing @reg, or -1 if none or several. */
long flow_single_def(const struct flow_fn *f, int reg);

/* Where decoded code comes from (the kernel text, a test's own bytes): the decoded function containing @addr, or NULL. */
struct flow_source {
	const struct flow_fn *(*fn_at)(void *ctx, uint64_t addr);
	void *ctx;
};

#endif
