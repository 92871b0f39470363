/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of glibc 2.36's __memmove_evex_unaligned_erms (memmove/memcpy, EVEX (AVX-512VL), VEC 32, ymm16-31). */

#define GLIBC_SYM asmref_glibc_memmove_evex
#define VEC 32
#define R0 %ymm16
#define R1 %ymm17
#define R2 %ymm18
#define R3 %ymm19
#define R4 %ymm20
#define R5 %ymm21
#define R6 %ymm22
#define R7 %ymm23
#define R8 %ymm24
#define R9 %ymm25
#define R10 %ymm26
#define R11 %ymm27
#define R12 %ymm28
#define R13 %ymm29
#define R14 %ymm30
#define R15 %ymm31
#define RX0 %xmm16
#define RX1 %xmm17
#define VMOVU vmovdqu64
#define VMOVA vmovdqa64
#define VMOVNT vmovntdq
#define VMOVU_X vmovdqu64


/* EVEX registers 16-31 have no SSE transition cost: no vzeroupper. */
.macro RETURN_VEC
	ret
.endm

#include "glibc_memmove_body.inc"

	.section .note.GNU-stack, "", @progbits
