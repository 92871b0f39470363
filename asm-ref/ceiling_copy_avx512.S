/* SPDX-License-Identifier: GPL-2.0 */
/* calibrate's ceiling: an L1-resident copy loop, 64 B AVX-512 loads and stores. */
#include "ceiling_loop.inc"

	CEILING_COPY asmref_ceiling_copy_avx512, 64, vmovdqu64, %zmm0, %zmm1, %zmm2, %zmm3, vzeroupper

	.section .note.GNU-stack, "", @progbits
