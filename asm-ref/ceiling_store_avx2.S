/* SPDX-License-Identifier: GPL-2.0 */
/* calibrate's ceiling: an L1-resident store loop, 32 B AVX stores (asmref_ceiling.h). */
#include "ceiling_loop.inc"

	CEILING_STORE asmref_ceiling_store_avx2, 32, vmovdqu, %ymm0, \
		"vpxor %xmm0, %xmm0, %xmm0", vzeroupper

	.section .note.GNU-stack, "", @progbits
