/* SPDX-License-Identifier: GPL-2.0 */
/* calibrate's ceiling: an L1-resident copy loop, 32 B AVX loads and stores (asmref_ceiling.h). */
#include "ceiling_loop.inc"

	CEILING_COPY asmref_ceiling_copy_avx2, 32, vmovdqu, %ymm0, %ymm1, %ymm2, %ymm3, vzeroupper

	.section .note.GNU-stack, "", @progbits
