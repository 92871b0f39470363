/* SPDX-License-Identifier: GPL-2.0 */
/* insn_bound.h: is an offset into machine code the start of an instruction? (Capstone, x86-64) */
#ifndef CP_INSN_BOUND_H
#define CP_INSN_BOUND_H

#include <stddef.h>
#include <stdint.h>

/* What insn_bound_find() saw around an offset. */
struct insn_bound {
	uint64_t before;    /* start of the instruction that holds (or starts at) the offset */
	uint64_t after;	    /* start of the next instruction (before + its length) */
	char mnemonic[160]; /* that instruction, "mov rdx, rax" */
};

/*
 * Decodes @code (@len bytes, the function from its first byte) linearly from offset 0 up to
 * @offset. Returns 0 if @offset starts an instruction, 1 if it falls inside the instruction
 * described in @b, -EINVAL if the bytes before it do not decode (then @b->before is where
 * decoding stopped), -ERANGE if @offset >= @len, -ENOTSUP without Capstone.
 */
int insn_bound_find(const uint8_t *code, size_t len, uint64_t offset, struct insn_bound *b);

#endif
