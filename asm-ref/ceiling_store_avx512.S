/* SPDX-License-Identifier: GPL-2.0 */
/* calibrate's ceiling: an L1-resident store loop, 64 B AVX-512 stores (asmref_ceiling.h). */
#include "ceiling_loop.inc"

	CEILING_STORE asmref_ceiling_store_avx512, 64, vmovdqu64, %zmm0, \
		"vpxor %xmm0, %xmm0, %xmm0", vzeroupper

	.section .note.GNU-stack, "", @progbits
