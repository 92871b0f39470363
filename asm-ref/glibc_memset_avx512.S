/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of glibc 2.36's __memset_avx512_unaligned_erms (memset, AVX-512, VEC 64, zmm16-31). */

#define GLIBC_SYM asmref_glibc_memset_avx512
#define VEC 64
#define R0 %zmm16
#define R1 %zmm17
#define R2 %zmm18
#define R3 %zmm19
#define R4 %zmm20
#define R5 %zmm21
#define R6 %zmm22
#define R7 %zmm23
#define R8 %zmm24
#define R9 %zmm25
#define R10 %zmm26
#define R11 %zmm27
#define R12 %zmm28
#define R13 %zmm29
#define R14 %zmm30
#define R15 %zmm31
#define RX0 %xmm16
#define RX1 %xmm17
#define VMOVU vmovdqu64
#define VMOVA vmovdqa64
#define VMOVNT vmovntdq
#define VMOVU_X vmovdqu64
#define RY0 %ymm16
#define RY1 %ymm17
#define MASKED_BELOW_VEC 1

/* EVEX registers 16-31 have no SSE transition cost: no vzeroupper. */
.macro RETURN_VEC
	ret
.endm

#include "glibc_memset_body.inc"

	.section .note.GNU-stack, "", @progbits
