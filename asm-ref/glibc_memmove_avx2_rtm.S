/* SPDX-License-Identifier: GPL-2.0 */
/* Replica of glibc 2.36's __memmove_avx_unaligned_erms_rtm (memmove/memcpy, AVX2 with RTM, VEC 32). */

#define GLIBC_SYM asmref_glibc_memmove_avx2_rtm
#define VEC 32
#define R0 %ymm0
#define R1 %ymm1
#define R2 %ymm2
#define R3 %ymm3
#define R4 %ymm4
#define R5 %ymm5
#define R6 %ymm6
#define R7 %ymm7
#define R8 %ymm8
#define R9 %ymm9
#define R10 %ymm10
#define R11 %ymm11
#define R12 %ymm12
#define R13 %ymm13
#define R14 %ymm14
#define R15 %ymm15
#define RX0 %xmm0
#define RX1 %xmm1
#define VMOVU vmovdqu
#define VMOVA vmovdqa
#define VMOVNT vmovntdq
#define VMOVU_X vmovdqu


/* vzeroupper inside an RTM transaction aborts it: vzeroall there (xtest says which). */
.macro RETURN_VEC
	xtest
	jz	1f
	vzeroall
	ret
1:	vzeroupper
	ret
.endm

#include "glibc_memmove_body.inc"

	.section .note.GNU-stack, "", @progbits
